import assert from 'node:assert/strict';
import { BrowserSession } from '../../src/session/browserSession';
import { isResponsive } from '../../src/actions/hung';
import { TEST_LAUNCH, crossSite } from '../helpers/chromium';
import { HEADLESS_ARGS, startMcp, type McpProcess } from '../helpers/mcpProcess';
import { startServer, type TestServer } from '../helpers/servers';
import { sleep } from '../../src/session/launcher';

/** Hangs its renderer for good 300 ms after load. */
const HUNG = `<!doctype html><title>Hung</title><p>about to hang</p><script>addEventListener('load', () => setTimeout(() => { for (;;) {} }, 300))</script>`;

describe('actions: a hung page (while(true) after load)', function () {
  this.timeout(90_000);
  let srv: TestServer;
  let mcp: McpProcess;
  before(async () => {
    srv = await startServer({
      '/hung': HUNG,
      '/next': `<!doctype html><title>Next page</title><h1>Next</h1><button>Go on</button>`,
      '/slow': () => {
        /* never answers */
      },
      '/': `<!doctype html><title>Start</title><p>start</p>`,
    });
    mcp = await startMcp([...HEADLESS_ARGS, '--max-wait-ms', '4000']);
  });
  after(async () => {
    await mcp?.close();
    await srv?.close();
  });

  async function openHung() {
    const r = await mcp.call('browser_navigate', { url: `${srv.url}hung` });
    assert.equal(r.isError, false, r.text);
    await sleep(800); // the script starts 300 ms after load
  }

  for (const [label, dest] of [
    ['same origin', () => `${srv.url}next`],
    ['another origin', () => `${crossSite(srv.url)}next`],
  ] as const) {
    it(`navigating away (${label}) shows the new page within 10 s and says the old one was hung`, async () => {
      await openHung();
      const t0 = Date.now();
      const r = await mcp.call('browser_navigate', { url: dest() });
      const took = Date.now() - t0;
      assert.equal(r.isError, false, r.text);
      assert.ok(took < 10_000, `took ${took} ms`);
      assert.match(r.text, /was hung/);
      assert.match(r.text, /Navigated to/);
      const snap = await mcp.call('browser_snapshot');
      assert.equal(snap.isError, false, snap.text);
      assert.match(snap.text, /Next page/, 'the tab really shows the new page');
      assert.match(snap.text, /button "Go on"/);
    });
  }

  it('other tools refuse a hung page at once with PAGE_HUNG, and reload/back leave it', async () => {
    await openHung();
    for (const [tool, args] of [['browser_snapshot', {}], ['browser_click', { x: 10, y: 10 }], ['browser_screenshot', {}]] as const) {
      const t0 = Date.now();
      const r = await mcp.call(tool, args);
      assert.equal(r.isError, true, `${tool}: ${r.text}`);
      assert.match(r.text, /^PAGE_HUNG: /, tool);
      assert.ok(Date.now() - t0 < 6000, `${tool} answered in ${Date.now() - t0} ms`);
    }
    const back = await mcp.call('browser_navigate_back');
    assert.equal(back.isError, false, back.text);
    assert.match(back.text, /was hung.*Went back/s);
    const snap = await mcp.call('browser_snapshot');
    assert.equal(snap.isError, false, snap.text);
    assert.doesNotMatch(snap.text, /about to hang/);
  });

  it('never reports success for a navigation that did not commit', async () => {
    await mcp.call('browser_navigate', { url: `${srv.url}` });
    const r = await mcp.call('browser_navigate', { url: `${srv.url}slow` });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /^TIMEOUT: .*did not load within 4 s: the tab still shows <page-content id=(\w+)>http:\/\/127\.0\.0\.1:\d+\/<\/page-content id=\1>\./);
    assert.doesNotMatch(r.text, /Navigated to/);
  });
});

describe('session: replacing a hung tab from the browser target', function () {
  this.timeout(60_000);
  it('opens a fresh, working tab in its place without touching the renderer', async () => {
    const srv = await startServer({ '/hung': HUNG });
    const b = await BrowserSession.launch(TEST_LAUNCH);
    try {
      const tab = await b.activeTab();
      await (await tab.session()).send('Page.navigate', { url: `${srv.url}hung` });
      await sleep(1500);
      assert.equal(await isResponsive(tab, await tab.session(), 1000), false, 'the probe finds it hung');
      const fresh = await b.replaceTab(tab.targetId);
      assert.notEqual(fresh.targetId, tab.targetId);
      assert.equal((await b.activeTab()).targetId, fresh.targetId, 'the new tab is the active one');
      assert.equal(b.tabs().some((t) => t.id === tab.targetId), false, 'the hung tab is gone');
      assert.equal(await fresh.evaluate('1 + 1'), 2);
    } finally {
      await b.close();
      await srv.close();
    }
  });
});
