// The hub's look at the pages (BrowserHub.probeLink, issue 33) shares the daemon's one browser connection with its
// clients: its page sessions and their events must reach no client, even when a client attaches the very page the
// look is attaching (both attachedToTarget events come before either answer says whose session is whose).
// Real parts: the hub over a real WebSocket to headless Chromium; clients are the hub's own HubClient interface.
import assert from 'node:assert/strict';
import { BrowserHub, type HubClient } from '../../src/daemon/hub';
import { CdpConnection } from '../../src/session/cdp';
import { probePages, type ProbeLink } from '../../src/session/tabChoice';
import { connectWebSocket, type CdpTransport } from '../../src/session/transport';
import { startExternalChromium, type ExternalBrowser } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';

interface Recorder extends HubClient {
  lines: any[];
  answer(id: number): Promise<any>;
}

/** The hub's WebSocket, with what the browser sends held back by `delayMs` (in order) while it is set. */
function slowable(inner: CdpTransport): CdpTransport & { delayMs: number } {
  const t: CdpTransport & { delayMs: number } = {
    delayMs: 0,
    send: (text) => inner.send(text),
    close: () => inner.close(),
  };
  inner.onmessage = (text) => (t.delayMs ? setTimeout(() => t.onmessage?.(text), t.delayMs) : t.onmessage?.(text));
  inner.onclose = () => t.onclose?.();
  return t;
}

function recorder(id: string): Recorder {
  const lines: any[] = [];
  const waiting = new Map<number, (m: any) => void>();
  return {
    id,
    discover: true,
    lines,
    deliver(line) {
      const m = JSON.parse(line);
      lines.push(m);
      if (typeof m.id === 'number') waiting.get(m.id)?.(m);
    },
    answer: (n) => new Promise((r) => (lines.some((m) => m.id === n) ? r(lines.find((m) => m.id === n)) : waiting.set(n, r))),
  };
}

describe('daemon hub: the look at the pages keeps its sessions and events to itself (real Chromium)', function () {
  this.timeout(60_000);
  let srv: TestServer;
  let ext: ExternalBrowser;
  let person: CdpConnection;
  let hub: BrowserHub;
  let wire: ReturnType<typeof slowable>;

  before(async () => {
    srv = await startServer({ '/p': `<!doctype html><title>P</title><h1>page</h1>` });
    ext = await startExternalChromium();
    person = await CdpConnection.connect(ext.wsEndpoint, { timeoutMs: 10_000 });
    wire = slowable(await connectWebSocket(ext.wsEndpoint));
    hub = new BrowserHub(wire, 10_000);
    await hub.init();
  });
  after(async () => {
    hub?.close();
    person?.close();
    await ext?.stop();
    await srv?.close();
  });

  async function page(): Promise<string> {
    const { targetId } = await person.send('Target.createTarget', { url: srv.origin + '/p' });
    await new Promise((r) => setTimeout(r, 300));
    return targetId;
  }

  /** Every session id a client heard of: in answers, events' sessionId, and attach/detach events' params. */
  const sessionsHeard = (c: Recorder) => new Set(c.lines.flatMap((m) => [m.sessionId, m.result?.sessionId, m.method?.startsWith('Target.') ? m.params?.sessionId : undefined]).filter(Boolean));

  it('a client that attaches the page the look is attaching gets its own session and events only; the look still reads the page', async () => {
    const target = await page();
    // A world that tells the look another agent works here (another machine's: always counted).
    const s = (await person.send('Target.attachToTarget', { targetId: target, flatten: true })).sessionId;
    await person.send('Page.createIsolatedWorld', { frameId: target, worldName: 'browser-agent:zz.000000.abcdef' }, s);
    const c = recorder('c');
    const link = hub.probeLink();
    let raced = false;
    // Right after the look sends its attach, the page becomes the client's and the client attaches it too.
    const racing: ProbeLink = {
      ...link,
      call(method, params, sessionId, timeoutMs) {
        const r = link.call(method, params, sessionId, timeoutMs);
        if (method === 'Target.attachToTarget' && (params as { targetId: string }).targetId === target && !raced) {
          raced = true;
          assert.equal(hub.claim(c, target), true);
          hub.fromClient(c, JSON.stringify({ id: 1, method: 'Target.attachToTarget', params: { targetId: target, flatten: true } }));
        }
        return r;
      },
    };
    const found = await probePages(racing);
    assert.ok(raced, 'the look attached the page');
    const mine = (await c.answer(1)).result?.sessionId as string;
    assert.ok(mine, JSON.stringify(c.lines));
    hub.fromClient(c, JSON.stringify({ id: 2, method: 'Runtime.enable', sessionId: mine, params: {} }));
    await c.answer(2);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual([...sessionsHeard(c)], [mine], `the client heard only of its own session: ${JSON.stringify(c.lines.map((m) => m.method ?? m.id))}`);
    assert.equal(c.lines.filter((m) => m.method === 'Target.attachedToTarget').length, 1, 'one attachedToTarget: its own');
    assert.ok(c.lines.some((m) => m.method === 'Runtime.executionContextCreated' && m.sessionId === mine), 'its own session’s events reach it');
    const p = found.find((f) => f.targetId === target);
    assert.equal(p?.agentWorld, true, 'the look heard the page’s worlds through its tap');
    assert.equal(hub.owner(target), c);
    await hub.release(c, false);
    await person.send('Target.detachFromTarget', { sessionId: s });
  });

  it('a client working in its own tab hears nothing of a look at the other pages, which stay nobody’s', async () => {
    const free = await page();
    const c = recorder('c2');
    hub.fromClient(c, JSON.stringify({ id: 1, method: 'Target.createTarget', params: { url: srv.origin + '/p' } }));
    const own = (await c.answer(1)).result.targetId as string;
    hub.fromClient(c, JSON.stringify({ id: 2, method: 'Target.attachToTarget', params: { targetId: own, flatten: true } }));
    const mine = (await c.answer(2)).result.sessionId as string;
    hub.fromClient(c, JSON.stringify({ id: 3, method: 'Runtime.enable', sessionId: mine, params: {} }));
    await c.answer(3);
    const heardBefore = c.lines.length;
    const found = await probePages(hub.probeLink());
    await new Promise((r) => setTimeout(r, 300));
    const after = c.lines.slice(heardBefore);
    // Its own page may still be loading (its own session's and target's events); nothing of any other reaches it.
    const elsewhere = (m: any) => {
      const session = m.sessionId ?? m.params?.sessionId;
      const target = m.params?.targetInfo?.targetId ?? m.params?.targetId;
      return (session && session !== mine) || (target && target !== own);
    };
    assert.deepEqual(after.filter(elsewhere), [], 'none of the look’s events');
    assert.deepEqual([...sessionsHeard(c)], [mine]);
    assert.equal(found.find((f) => f.targetId === free)?.visible !== undefined, true, 'the free page was looked into');
    assert.equal(found.find((f) => f.targetId === own)?.visible, undefined, 'a client’s page is not looked into');
    assert.equal(hub.owner(free), undefined, 'the looked-at page is nobody’s');
    assert.deepEqual(hub.tabsOf(c).map((t) => t.targetId), [own]);
    await hub.release(c, true);
  });

  it('an attach of the look that answers after it gave up is detached, not left on the page', async () => {
    const target = await page();
    const attached = async () => (await person.send('Target.getTargets')).targetInfos.find((t) => t.targetId === target)?.attached;
    assert.equal(await attached(), false);
    // The browser's answers held back 500 ms, the look waits 50 ms: its attach is answered after it gave up.
    wire.delayMs = 500;
    await assert.rejects(hub.probeLink().call('Target.attachToTarget', { targetId: target, flatten: true }, undefined, 50), /got no answer within 50 ms/);
    let last: boolean | undefined;
    for (let i = 0; i < 50 && (last = await attached()) !== false; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(last, false, 'nothing stays attached to the page');
    wire.delayMs = 0;
  });
});
