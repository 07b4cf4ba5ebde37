// Process chaos through the real MCP server (the SDK's client over stdio, --no-daemon), real headless
// Chromium and a real TCP proxy: a browser that freezes (SIGSTOP) and a DevTools connection that stalls
// without closing or is cut. Every call must end within seconds with an error that names what happened,
// the next call must recover by itself (relaunch a browser we launched; reconnect to one we attached to,
// which is never closed), and nothing we launched may be left running.
// Covered elsewhere: a browser killed between calls (test/session/relaunchNotice.test.ts), the server
// SIGKILLed (test/session/ownership.test.ts), a crashed renderer (test/mcp/hostilePages.test.ts).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep } from '../../src/session/launcher';
import { startExternalChromium, type ExternalBrowser } from '../helpers/chromium';
import { alive, until } from '../helpers/daemon';
import { HEADLESS_ARGS, MCP_BIN, startMcp, type McpProcess } from '../helpers/mcpProcess';
import { spawn } from 'node:child_process';
import { browserProcesses, launchedBrowserOf, processes } from '../helpers/procs';
import { startServer, type TestServer } from '../helpers/servers';
import { startTcpProxy, type TcpProxy } from '../helpers/tcpProxy';

/** A minimal MCP host: starts the server given on its command line, navigates, then waits on a long call. */
const CLIENT_SCRIPT = String.raw`
const { Client } = require(${JSON.stringify(require.resolve('@modelcontextprotocol/sdk/client/index.js'))});
const { StdioClientTransport } = require(${JSON.stringify(require.resolve('@modelcontextprotocol/sdk/client/stdio.js'))});
(async () => {
  const [bin, ...rest] = process.argv.slice(1);
  const url = rest.pop();
  const client = new Client({ name: 'doomed-host', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, ...rest], stderr: 'ignore' }));
  await client.callTool({ name: 'browser_navigate', arguments: { url } }, undefined, { timeout: 60000 });
  const long = client.callTool({ name: 'browser_wait', arguments: { text: 'never shows up', timeoutMs: 60000 } }, undefined, { timeout: 90000 });
  setTimeout(() => process.stdout.write('waiting\n'), 500);
  await long;
})();
`;

/** Bound for a call that meets a dead or frozen browser (a hang runs into the 60 s call timeout instead); room for a loaded machine. */
const BOUND_MS = 22_000;

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

  it('the user closes the browser we attached to, mid-call: a clear error, then "it is gone" (never relaunched, nothing of ours left)', async () => {
    const ext: ExternalBrowser = await startExternalChromium();
    cleanup.push(() => ext.stop());
    const m = await startMcp([...HEADLESS_ARGS, '--cdp-url', `http://127.0.0.1:${ext.port}`]);
    cleanup.push(() => m.close());
    assert.equal((await m.call('browser_navigate', { url: srv.url })).isError, false);
    const waiting = timed(m, 'browser_wait', { text: 'never shows up', timeoutMs: 30_000 });
    await sleep(800);
    process.kill(-ext.pid, 'SIGTERM'); // as when the person quits Chrome
    const mid = await waiting;
    assert.equal(mid.isError, true, mid.text);
    assert.match(mid.text, /^BROWSER_DISCONNECTED: The browser Browser Agent was attached to went away while waiting/);
    assert.ok(mid.ms < BOUND_MS, `the wait ended after ${mid.ms} ms`);
    await until(() => !alive(ext.pid), 10_000, 'the user’s browser to exit');

    // Before: ATTACH_FAILED with first-time setup help ("turn on remote debugging…") on every call.
    for (let i = 0; i < 2; i++) {
      const r = await timed(m, 'browser_snapshot');
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, /^BROWSER_DISCONNECTED: The browser Browser Agent was attached to \(ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\/[^)]+\) is gone/);
      assert.match(r.text, /Hint: Browser Agent never starts or closes a browser it only attached to/);
      assert.ok(r.ms < BOUND_MS, `${r.ms} ms`);
    }
    assert.equal(launchedBrowserOf(m.pid), undefined, 'no browser was launched in its place');
    assert.deepEqual(browserProcesses({ profileDir: ext.profileDir }), [], 'nothing runs in the user’s profile');
    assert.ok(existsSync(ext.profileDir), 'the user’s profile is left alone');
  });

  it('SIGKILL of the launched browser in the middle of wait, navigate and screenshot: each call ends at once with a clear error, the next one relaunches, nothing is left', async () => {
    srv.route('/stall', () => {}); // a response that never comes: the navigation is still under way when the browser dies
    const m = await startMcp(HEADLESS_ARGS);
    cleanup.push(() => m.close());
    assert.equal((await m.call('browser_navigate', { url: srv.url })).isError, false);
    const calls: [string, Record<string, unknown>, number][] = [
      ['browser_wait', { text: 'never shows up', timeoutMs: 30_000 }, 800],
      ['browser_navigate', { url: `${srv.url}stall` }, 800],
      ['browser_screenshot', { fullPage: true }, 0],
    ];
    for (const [name, args, after] of calls) {
      const b = launchedBrowserOf(m.pid)!;
      const call = timed(m, name, args);
      await sleep(after);
      process.kill(-b.pid, 'SIGKILL');
      const r = await call;
      // A screenshot may be done before the kill lands; then it must be a picture.
      if (r.isError) assert.match(r.text, /^BROWSER_DISCONNECTED: The browser (exited or was killed|went away before the call finished|connection is closed)/, `${name}: ${r.text}`);
      else assert.equal(r.images, 1, `${name}: ${r.text}`);
      assert.ok(r.ms < BOUND_MS, `${name} took ${r.ms} ms`);
      await until(() => browserProcesses({ pgid: b.pid, profileDir: b.profileDir }).length === 0, 5000, `the killed browser's processes (${name})`);
      await until(() => !existsSync(b.profileDir), 8000, `its temporary profile to be deleted (${name})`);
      const next = await m.call('browser_navigate', { url: `${srv.url}next` });
      assert.equal(next.isError, false, next.text);
      assert.match(next.text, /^Note: the browser had exited or crashed since the last call and was relaunched\./);
    }
  });

  it('the MCP client is SIGKILLed in the middle of a long call: the server exits and the Chromium it launched is gone within seconds', async () => {
    // A real client process (the SDK's client over stdio) that starts the server and waits on a long call.
    const client = spawn(process.execPath, ['-e', CLIENT_SCRIPT, MCP_BIN, ...HEADLESS_ARGS, '--no-daemon', '--audit-dir', 'off', `${srv.url}`], { stdio: ['ignore', 'pipe', 'ignore'] });
    cleanup.push(async () => client.kill('SIGKILL'));
    await new Promise<void>((resolve, reject) => {
      client.stdout!.on('data', (d) => String(d).includes('waiting') && resolve());
      client.once('exit', () => reject(new Error('the client exited early')));
    });
    const server = processes().find((p) => p.ppid === client.pid && p.cmdline.includes('mcp.js'))!;
    assert.ok(server, 'the client started the server');
    const b = launchedBrowserOf(server.pid)!;
    assert.ok(b, 'the server launched a browser');
    client.kill('SIGKILL');
    await until(() => !alive(server.pid), 8000, 'the server to exit once its client is gone');
    await until(() => browserProcesses({ pgid: b.pid, profileDir: b.profileDir }).length === 0, 8000, 'its browser to be gone');
    await until(() => !existsSync(b.profileDir), 8000, 'its temporary profile to be deleted');
  });

  it('the MCP client closes stdin in the middle of a long call: the server exits, its browser is gone, and its audit log has the cut call and ends with a closing record', async () => {
    const auditDir = mkdtempSync(join(tmpdir(), 'ba-chaos-audit-'));
    cleanup.push(async () => rmSync(auditDir, { recursive: true, force: true }));
    const m = await startMcp([...HEADLESS_ARGS, '--audit-dir', auditDir]);
    cleanup.push(() => m.close());
    assert.equal((await m.call('browser_navigate', { url: srv.url })).isError, false);
    const b = launchedBrowserOf(m.pid)!;
    const waiting = m.call('browser_wait', { text: 'never shows up', timeoutMs: 30_000 }).catch(() => undefined);
    await sleep(700);
    (m.transport as unknown as { _process: { stdin: { end(): void } } })._process.stdin.end();
    await until(() => !alive(m.pid), 10_000, 'the server to exit');
    void waiting;
    await until(() => browserProcesses({ pgid: b.pid, profileDir: b.profileDir }).length === 0, 5000, 'its browser to be gone');
    const [task] = readdirSync(auditDir);
    const lines = readFileSync(join(auditDir, task, 'log.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const kinds = lines.map((l) => (l.type === 'step' ? `step ${l.tool}` : l.type));
    // Before: the audit closed first, so the call cut short was never written.
    assert.deepEqual(kinds, ['task_start', 'step browser_navigate', 'step browser_wait', 'task_end'], JSON.stringify(kinds));
    assert.equal(lines[2].ok, false);
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
    await until(() => !existsSync(b.profileDir), 8000, 'its temporary profile to be deleted');

    const nav = await timed(m, 'browser_navigate', { url: `${srv.url}next` });
    assert.equal(nav.isError, false, nav.text);
    assert.match(nav.text, /^Note: the browser had exited or crashed since the last call and was relaunched\./);
    const now = launchedBrowserOf(m.pid);
    assert.ok(now && now.pid !== b.pid, 'a new browser runs');
  });
});
