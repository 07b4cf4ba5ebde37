// A tab's renderer process killed as the out-of-memory killer would (SIGKILL of that one pid, the largest),
// in the middle of a call, through the real MCP server (--no-daemon), real Chromium and a real HTTP server: the
// call says the page crashed at once, the other tab is unaffected, and reload/navigate recover the tab.
// (A crash between calls via Page.crash: test/mcp/hostilePages.test.ts.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { sleep } from '../../src/session/launcher';
import { HEADLESS_ARGS, startMcp, type McpProcess } from '../helpers/mcpProcess';
import { browserProcesses, launchedBrowserOf } from '../helpers/procs';
import { crossSite } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';

/** Tells "at once" from waiting out a 30 s deadline, with room for a loaded 2-core machine (speed is for the benchmarks). */
const BOUND_MS = 20_000;

function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * The renderer of the page that just allocated 200 MB, the one an OOM killer would pick: of those holding over
 * 150 MB, the newest (a fat renderer an earlier case left behind must not be taken for it).
 */
function fattestRenderer(browserPid: number): { pid: number; kb: number } {
  const all = browserProcesses({ pgid: browserPid }).filter((p) => p.cmdline.includes('--type=renderer')).map((p) => ({ pid: p.pid, kb: rssKb(p.pid) }));
  const fat = all.filter((r) => r.kb > 150_000).sort((a, b) => b.pid - a.pid);
  return fat[0] ?? all.sort((a, b) => b.kb - a.kb)[0];
}

describe('mcp: a renderer killed mid-call (OOM-like), beside a tab that must not notice', function () {
  this.timeout(120_000);
  let srv: TestServer;
  let m: McpProcess;
  before(async () => {
    srv = await startServer({
      '/': '<!doctype html><title>Calm</title><h1>Calm tab</h1><button>Stay</button>',
      // 200 MB held by the page, and a button whose click keeps the page changing (a settle that does not end soon).
      '/fat': `<!doctype html><title>Fat</title><h1>Fat tab</h1><p id=n>0</p>
<button onclick="setInterval(() => { document.getElementById('n').textContent = String(Date.now()) }, 20)">Churn</button>
<script>window.big = new Uint8Array(200e6).fill(7);</script>`,
    });
    m = await startMcp(HEADLESS_ARGS);
  });
  after(async () => {
    await m?.close();
    await srv?.close();
  });

  async function timed(name: string, args: Record<string, unknown> = {}) {
    const t0 = Date.now();
    const r = await m.call(name, args);
    return { ...r, ms: Date.now() - t0 };
  }

  /** The calm tab first (index 0), then the fat page in a tab of its own on another site (its own renderer). */
  async function openTabs() {
    assert.equal((await m.call('browser_navigate', { url: srv.url })).isError, false);
    const opened = await m.call('browser_tabs', { action: 'new', url: `${crossSite(srv.url)}fat` });
    assert.equal(opened.isError, false, opened.text);
    await sleep(300);
    assert.match((await m.call('browser_snapshot')).text, /Fat tab/);
  }

  async function killDuring(name: string, args: Record<string, unknown>, after: number) {
    const browser = launchedBrowserOf(m.pid)!;
    const victim = fattestRenderer(browser.pid);
    assert.ok(victim.kb > 150_000, `the fat page's renderer holds its 200 MB (${victim.kb} kB)`);
    const call = timed(name, args);
    await sleep(after);
    process.kill(victim.pid, 'SIGKILL');
    return { r: await call, browser };
  }

  async function calmTabUnaffectedAndRecover(how: 'reload' | 'navigate' = 'reload') {
    // The other tab goes on as if nothing happened.
    assert.equal((await m.call('browser_tabs', { action: 'select', index: 0 })).isError, false);
    const calm = await m.call('browser_snapshot');
    assert.equal(calm.isError, false, calm.text);
    assert.match(calm.text, /Calm tab/);
    // The crashed tab is still listed, says so, and reload brings it back.
    assert.equal((await m.call('browser_tabs', { action: 'select', index: 1 })).isError, false);
    assert.match((await m.call('browser_snapshot')).text, /^PAGE_CRASHED: /);
    const back = how === 'reload' ? await m.call('browser_reload') : await m.call('browser_navigate', { url: `${crossSite(srv.url)}fat` });
    assert.equal(back.isError, false, back.text);
    assert.match((await m.call('browser_snapshot')).text, /Fat tab/);
    // Leave the calm tab only for the next case.
    for (let i = 0; i < 5 && (await m.call('browser_tabs', { action: 'list' })).text.split('\n').filter((l) => /^\d+\./.test(l)).length > 1; i++) {
      await m.call('browser_tabs', { action: 'close', index: 1 });
    }
  }

  it('browser_wait: PAGE_CRASHED at once, not a TIMEOUT at its deadline', async () => {
    await openTabs();
    const { r, browser } = await killDuring('browser_wait', { text: 'never shows up', timeoutMs: 30_000 }, 800);
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /^PAGE_CRASHED: The page .* crashed \(its renderer process died\)/);
    assert.ok(r.ms < BOUND_MS, `the wait ended after ${r.ms} ms`);
    assert.ok(browserProcesses({ pgid: browser.pid }).length > 0, 'the browser itself lives on');
    await calmTabUnaffectedAndRecover();
  });

  it('browser_click waiting for the page to settle: the result says the page crashed, within seconds', async () => {
    await openTabs();
    const ref = /\[([^\]]+)\] button "Churn"/.exec((await m.call('browser_snapshot')).text)![1];
    const { r } = await killDuring('browser_click', { ref }, 600);
    assert.ok(r.ms < BOUND_MS, `the click took ${r.ms} ms: ${r.text}`);
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /^Clicked button "Churn"\.\n[^]*PAGE_CRASHED: The page .* crashed/);
    // The tab browser_tabs opened earlier is not news to this click (it was named as "New tab opened" again).
    assert.doesNotMatch(r.text, /New tab opened/);
    await calmTabUnaffectedAndRecover();
  });

  it('browser_navigate to a page that never finishes loading: the result says the page crashed, within seconds', async () => {
    await openTabs();
    srv.route('/slow', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<!doctype html><title>Slow</title><h1>Slow tab</h1><script>window.big = new Uint8Array(200e6).fill(7);</script>');
    });
    const { r } = await killDuring('browser_navigate', { url: `${crossSite(srv.url)}slow` }, 1500);
    assert.ok(r.ms < BOUND_MS, `navigate took ${r.ms} ms: ${r.text}`);
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /PAGE_CRASHED: The page .* crashed/);
    await calmTabUnaffectedAndRecover('navigate');
  });
});
