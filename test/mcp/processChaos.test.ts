// Process chaos through the real MCP server (the SDK's client over stdio, --no-daemon), real headless
// Chromium and a real TCP proxy: a browser that freezes (SIGSTOP) and a DevTools connection that stalls
// without closing or is cut. Every call must end within seconds with an error that names what happened,
// the next call must recover by itself (relaunch a browser we launched; reconnect to one we attached to,
// which is never closed), and nothing we launched may be left running.
// Covered elsewhere: a browser killed between calls (test/session/relaunchNotice.test.ts), the server
// SIGKILLed (test/session/ownership.test.ts), a crashed renderer (test/mcp/hostilePages.test.ts).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { sleep } from '../../src/session/launcher';
import { startExternalChromium, type ExternalBrowser } from '../helpers/chromium';
import { alive, until } from '../helpers/daemon';
import { HEADLESS_ARGS, startMcp, type McpProcess } from '../helpers/mcpProcess';
import { browserProcesses, launchedBrowserOf } from '../helpers/procs';
import { startServer, type TestServer } from '../helpers/servers';
import { startTcpProxy, type TcpProxy } from '../helpers/tcpProxy';

/** Bound for a call that meets a dead or frozen browser (a hang runs into the 60 s call timeout instead). */
const BOUND_MS = 12_000;

describe('mcp: a frozen browser and a stalled or cut DevTools connection (real server, Chromium, TCP proxy)', function () {
  this.timeout(150_000);
  let srv: TestServer;
  const cleanup: (() => Promise<unknown>)[] = [];
  before(async () => {
    srv = await startServer({
      '/': '<!doctype html><title>Start</title><h1>Start</h1><button>Press me</button>',
      '/next': '<!doctype html><title>Next page</title><h1>Next</h1>',
    });
  });
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c().catch(() => {});
  });
  after(() => srv?.close());

  async function timed(m: McpProcess, name: string, args: Record<string, unknown> = {}) {
    const t0 = Date.now();
    const r = await m.call(name, args);
    return { ...r, ms: Date.now() - t0 };
  }

  it('attached through a proxy that stalls: the call fails within seconds saying the browser stopped answering, the next call reconnects; the user’s browser is never closed', async () => {
    const ext: ExternalBrowser = await startExternalChromium();
    cleanup.push(() => ext.stop());
    const proxy: TcpProxy = await startTcpProxy(ext.port);
    cleanup.push(() => proxy.close());
    const m = await startMcp([...HEADLESS_ARGS, '--cdp-url', `ws://127.0.0.1:${proxy.port}${new URL(ext.wsEndpoint).pathname}`]);
    cleanup.push(() => m.close());
    assert.equal((await m.call('browser_navigate', { url: srv.url })).isError, false);

    // A read on the page: before, PAGE_HUNG blaming a script on the page, for ever.
    proxy.stall();
    const snap = await timed(m, 'browser_snapshot');
    assert.equal(snap.isError, true, snap.text);
    assert.match(snap.text, /^BROWSER_DISCONNECTED: The browser stopped answering/);
    assert.match(snap.text, /Hint: The browser was left running; the next call connects to it again/);
    assert.ok(snap.ms < BOUND_MS, `snapshot took ${snap.ms} ms`);
    const again = await m.call('browser_navigate', { url: `${srv.url}next` });
    assert.equal(again.isError, false, again.text);
    assert.match(again.text, /Navigated to/);

    // A browser-level call (a new tab): before, the 30 s CDP TIMEOUT, and every later call the same.
    proxy.stall();
    const tab = await timed(m, 'browser_tabs', { action: 'new', url: srv.url });
    assert.equal(tab.isError, true, tab.text);
    assert.match(tab.text, /^BROWSER_DISCONNECTED: The browser stopped answering/);
    assert.ok(tab.ms < BOUND_MS, `a new tab took ${tab.ms} ms`);
    assert.match((await m.call('browser_snapshot')).text, /Title: Next page/, 'the page the agent had open is still there');

    // The connection cut and the address refusing: a clear error at once, then back when it answers again.
    proxy.refuseNew = true;
    proxy.cut();
    await sleep(200);
    const cut = await timed(m, 'browser_snapshot');
    assert.equal(cut.isError, true, cut.text);
    assert.match(cut.text, /^(ATTACH_FAILED|BROWSER_DISCONNECTED): /);
    assert.ok(cut.ms < BOUND_MS, `a call to a gone browser took ${cut.ms} ms`);
    proxy.refuseNew = false;
    const back = await m.call('browser_snapshot');
    assert.equal(back.isError, false, back.text);
    assert.match(back.text, /Title: Next page/);

    await m.close();
    await sleep(300);
    assert.ok(alive(ext.pid), 'the browser we attached to is never closed');
  });

  it('SIGSTOP of the launched browser: the call fails within seconds, the frozen browser is killed and its profile deleted, the next call relaunches', async () => {
    const m = await startMcp(HEADLESS_ARGS);
    cleanup.push(() => m.close());
    assert.equal((await m.call('browser_navigate', { url: srv.url })).isError, false);
    const b = launchedBrowserOf(m.pid)!;
    assert.ok(b, 'the server launched a browser');
    cleanup.push(async () => {
      try {
        process.kill(-b.pid, 'SIGCONT');
      } catch {
        /* gone, as it should be */
      }
    });
    process.kill(-b.pid, 'SIGSTOP');

    const snap = await timed(m, 'browser_snapshot');
    assert.equal(snap.isError, true, snap.text);
    assert.match(snap.text, /^BROWSER_DISCONNECTED: The browser stopped answering/);
    assert.match(snap.text, /Hint: The browser Browser Agent launched was closed; the next call launches a new one/);
    assert.ok(snap.ms < BOUND_MS, `snapshot took ${snap.ms} ms`);
    await until(() => browserProcesses({ pgid: b.pid, profileDir: b.profileDir }).length === 0, 8000, 'the frozen browser’s processes to be gone');
    assert.equal(existsSync(b.profileDir), false, 'its temporary profile is deleted');

    const nav = await timed(m, 'browser_navigate', { url: `${srv.url}next` });
    assert.equal(nav.isError, false, nav.text);
    assert.match(nav.text, /^Note: the browser had exited or crashed since the last call and was relaunched\./);
    const now = launchedBrowserOf(m.pid);
    assert.ok(now && now.pid !== b.pid, 'a new browser runs');
  });
});
