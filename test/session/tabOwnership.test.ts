// Which client owns which tab: the one ledger the session daemon's hub keeps per client and an in-process
// server keeps for itself (src/session/tabOwnership.ts), and two in-process servers attached to one browser,
// each in its own tab, seeing only its own (src/session/processTabs.ts, claim files between processes).
import assert from 'node:assert/strict';
import { CdpConnection } from '../../src/session/cdp';
import { TabOwnership } from '../../src/session/tabOwnership';
import { startExternalChromium, type ExternalBrowser } from '../helpers/chromium';
import { startMcp, type McpProcess } from '../helpers/mcpProcess';
import { startServer, type TestServer } from '../helpers/servers';

describe('session: tab ownership', () => {
  it('a tab is its client’s once claimed, created or opened by one of its tabs; released tabs are free again', () => {
    const tabs = new TabOwnership<string>();
    assert.equal(tabs.claim('a', 'T1'), true);
    assert.equal(tabs.claim('b', 'T1'), false, 'another client’s tab is never taken by a claim');
    assert.equal(tabs.owns('a', 'T1'), true);
    assert.equal(tabs.owns('b', 'T1'), false);
    assert.equal(tabs.owns('a', undefined), false);
    tabs.assign('b', 'T2');
    tabs.adoptPopup('P1', 'T2');
    assert.equal(tabs.owner('P1'), 'b', 'a popup is its opener’s');
    tabs.adoptPopup('T1', 'T2');
    assert.equal(tabs.owner('T1'), 'a', 'an owned tab keeps its owner');
    tabs.adoptPopup('P2', 'UNKNOWN');
    assert.equal(tabs.owner('P2'), undefined);
    assert.equal(tabs.claimFirstFree('c', [{ targetId: 'T1' }, { targetId: 'D', devtools: true }, { targetId: 'F' }], (t) => !('devtools' in t)), 'F');
    assert.deepEqual([...tabs.clients()].sort(), ['a', 'b', 'c']);
    assert.deepEqual(tabs.release('b'), ['T2', 'P1']);
    assert.equal(tabs.claim('a', 'T2'), true, 'a released tab is free');
    tabs.forget('T2');
    assert.equal(tabs.owner('T2'), undefined);
  });
});

describe('session: two in-process servers attached to one browser (real MCP servers, real Chromium)', function () {
  this.timeout(120_000);
  let ext: ExternalBrowser;
  let srv: TestServer;
  const servers: McpProcess[] = [];

  before(async () => {
    srv = await startServer({ '/mine': `<!doctype html><title>My page</title><h1>Hello from my page</h1>` });
    ext = await startExternalChromium();
    const conn = await CdpConnection.connect(ext.wsEndpoint, { timeoutMs: 10_000 });
    try {
      const page = (await conn.send('Target.getTargets')).targetInfos.find((t) => t.type === 'page')!;
      const { sessionId } = await conn.send('Target.attachToTarget', { targetId: page.targetId, flatten: true });
      await conn.session(sessionId).send('Page.navigate', { url: srv.origin + '/mine' });
    } finally {
      conn.close();
    }
  });
  after(async () => {
    for (const s of servers) await s.close();
    await ext?.stop();
    await srv?.close();
  });

  const tabLines = (text: string) => text.split('\n').filter((l) => /^\d+\. /.test(l));

  it('the first works in the user’s page, the second in a tab of its own; each lists and keeps only its own tabs', async () => {
    const cdp = ['--cdp-url', `http://127.0.0.1:${ext.port}`, '--no-daemon'];
    const a = await startMcp(cdp);
    servers.push(a);
    const snapA = await a.call('browser_snapshot');
    assert.match(snapA.text, /Hello from my page/, 'the first server works in the page the user has open');
    const b = await startMcp(cdp);
    servers.push(b);
    const snapB = await b.call('browser_snapshot');
    assert.ok(!snapB.isError, snapB.text);
    assert.doesNotMatch(snapB.text, /Hello from my page/, 'the second is never put in the first one’s page');
    assert.equal(tabLines((await a.call('browser_tabs', { action: 'list' })).text).length, 1);
    assert.equal(tabLines((await b.call('browser_tabs', { action: 'list' })).text).length, 1);
    // A tab the first opens is its own; the second still sees only its own.
    const opened = await a.call('browser_tabs', { action: 'new', url: srv.origin + '/mine' });
    assert.ok(!opened.isError, opened.text);
    assert.equal(tabLines((await a.call('browser_tabs', { action: 'list' })).text).length, 2);
    const listB = (await b.call('browser_tabs', { action: 'list' })).text;
    assert.equal(tabLines(listB).length, 1, listB);
    assert.doesNotMatch(listB, /My page/);
  });
});
