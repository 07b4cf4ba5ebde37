// The daemon's look at the pages when a session takes the person's page (--attach-tab existing, the default) goes
// through its one DevTools connection (issue 33): a Chrome that asks "Allow remote debugging?" per connection asks
// once for all agents. The look owns nothing afterwards, a hung page does not hold up a session's start.
// Real parts: the daemon and MCP server bins, the SDK client, Chromium behind a TCP proxy that counts WebSocket
// handshakes, pages on 127.0.0.1.
import assert from 'node:assert/strict';
import { CdpConnection } from '../../src/session/cdp';
import { startExternalChromium, type ExternalBrowser } from '../helpers/chromium';
import { daemonEnv, runDaemonCli, spawnMcp, until, type McpProc } from '../helpers/daemon';
import { startServer, type TestServer } from '../helpers/servers';
import { startTcpProxy, type TcpProxy } from '../helpers/tcpProxy';

describe('daemon: the look at the person’s pages goes through the daemon’s one connection (real daemon, MCP servers, Chromium)', function () {
  this.timeout(180_000);
  let srv: TestServer;
  let ext: ExternalBrowser;
  let proxy: TcpProxy;
  let person: CdpConnection;
  const procs: McpProc[] = [];

  before(async () => {
    srv = await startServer({
      '/person': `<!doctype html><title>Person</title><h1>The person's page</h1>`,
      '/later': `<!doctype html><title>Later</title><h1>The person's other tab</h1>`,
      // An endless loop once loaded: the page answers nothing that needs its renderer.
      '/hung': `<!doctype html><title>Hung</title><script>setTimeout(() => { for (;;) {} }, 50)</script>`,
    });
    ext = await startExternalChromium();
    proxy = await startTcpProxy(ext.port);
    // The person's own tools talk to the browser directly: only the agents' connections go through the proxy.
    person = await CdpConnection.connect(ext.wsEndpoint, { timeoutMs: 10_000 });
  });
  afterEach(async () => {
    for (const p of procs.splice(0)) await p.close().catch(() => undefined);
  });
  after(async () => {
    person?.close();
    await proxy?.close();
    await ext?.stop();
    await srv?.close();
  });

  const pages = async () => (await person.send('Target.getTargets')).targetInfos.filter((t) => t.type === 'page');

  /** A fresh page in front, the only one of the default context (earlier agents' worlds are in the old ones). */
  async function personPage(path: string): Promise<string> {
    const { targetId } = await person.send('Target.createTarget', { url: srv.origin + path });
    for (const t of await pages()) if (t.targetId !== targetId) await person.send('Target.closeTarget', { targetId: t.targetId }).catch(() => undefined);
    await until(async () => (await pages()).length === 1, 10_000, 'the other pages to close');
    await person.send('Target.activateTarget', { targetId });
    return targetId;
  }

  const args = () => ['--cdp-url', `http://127.0.0.1:${proxy.port}`, '--audit-dir', 'off'];
  const tabsOf = async (env: Record<string, string>) => {
    const st = JSON.parse((await runDaemonCli(env, 'status', '--json')).stdout);
    return st.sessions.map((s: { client: string; tabs: { id: string }[] }) => ({ client: s.client, tabs: s.tabs.map((t) => t.id) }));
  };

  it('three agents: the browser sees ONE connection; the first works in the person’s page, the others in tabs of their own', async () => {
    const env = daemonEnv(1500);
    const pageId = await personPage('/person');
    const before = proxy.websockets;
    const first = await spawnMcp(env, args(), 'first');
    procs.push(first);
    const snap = await first.call('browser_snapshot');
    assert.equal(snap.isError, false, snap.text);
    assert.match(snap.text, /The person's page/);
    const others = await Promise.all(['second', 'third'].map((n) => spawnMcp(env, args(), n)));
    procs.push(...others);
    for (const o of await Promise.all(others.map((o) => o.call('browser_snapshot')))) {
      assert.equal(o.isError, false, o.text);
      assert.doesNotMatch(o.text, /The person's page/);
    }
    const sessions = await tabsOf(env);
    assert.equal(sessions.length, 3);
    assert.deepEqual(sessions.find((s: { client: string }) => /first/.test(s.client))?.tabs, [pageId]);
    assert.equal(new Set(sessions.flatMap((s: { tabs: string[] }) => s.tabs)).size, 3, 'each agent in a tab of its own');
    // Each session's look at the pages went through the daemon's connection (before: one more per session).
    assert.equal(proxy.websockets - before, 1, `DevTools connections the browser saw: ${proxy.websockets - before}`);
  });

  it('the look owns nothing: a background tab it looked into is the next client’s once in front; a hung page does not hold up the start', async () => {
    const env = daemonEnv(1500);
    const pageId = await personPage('/person');
    const { targetId: laterId } = await person.send('Target.createTarget', { url: srv.origin + '/later', background: true });
    // A page in an endless loop, in a browser context of its own (its own renderer: the others stay responsive).
    const { browserContextId } = await person.send('Target.createBrowserContext');
    const { targetId: hungId } = await person.send('Target.createTarget', { url: srv.origin + '/hung', browserContextId, background: true });
    await new Promise((r) => setTimeout(r, 500));
    try {
      const before = proxy.websockets;
      const first = await spawnMcp(env, args(), 'first');
      procs.push(first);
      const t0 = Date.now();
      const snap = await first.call('browser_snapshot');
      const took = Date.now() - t0;
      assert.equal(snap.isError, false, snap.text);
      assert.match(snap.text, /The person's page/);
      // The hung page's look gives up after its short timeouts (1.5 s per call), not the hub's 30 s (bound generous for load).
      assert.ok(took < 25_000, `the first call (the session's start with it) took ${took} ms`);
      let sessions = await tabsOf(env);
      assert.deepEqual(sessions[0].tabs, [pageId]);

      // The person switches to the other tab: nobody owns it after the look, so the next agent works there.
      await person.send('Target.activateTarget', { targetId: laterId });
      const second = await spawnMcp(env, args(), 'second');
      procs.push(second);
      const snap2 = await second.call('browser_snapshot');
      assert.equal(snap2.isError, false, snap2.text);
      assert.match(snap2.text, /The person's other tab/);
      sessions = await tabsOf(env);
      assert.deepEqual(sessions.find((s: { client: string }) => /second/.test(s.client))?.tabs, [laterId]);
      assert.ok(!sessions.some((s: { tabs: string[] }) => s.tabs.includes(hungId)), 'nobody was given the hung page');
      assert.equal(proxy.websockets - before, 1);
    } finally {
      await person.send('Target.disposeBrowserContext', { browserContextId }).catch(() => undefined);
    }
  });
});
