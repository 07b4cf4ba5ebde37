import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/servers';
import { alive, daemonEnv, listeningTcpPorts, runDaemonCli, spawnMcp, until, type McpProc } from '../helpers/daemon';

async function status(env: Record<string, string>): Promise<any> {
  const r = await runDaemonCli(env, 'status', '--json');
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const pages = (n: string) =>
  `<!doctype html><title>Page ${n}</title><button onclick="this.textContent = 'clicked ${n} ' + (++window.clicks || (window.clicks = 1))">Button ${n}</button><a href="/other-${n}" target=_blank>open ${n}</a>`;

describe('daemon: one browser, a session and tab per client (real daemon, real MCP clients, real Chromium)', function () {
  this.timeout(180_000);
  let srv: TestServer;
  const procs: McpProc[] = [];
  before(async () => {
    srv = await startServer({
      '/a': pages('a'),
      '/b': pages('b'),
      '/c': pages('c'),
      '/other-a': '<!doctype html><title>Other a</title>',
      '/slow': (_req, res) => setTimeout(() => res.end('<!doctype html><title>Slow</title>'), 4000),
    });
  });
  after(async () => {
    for (const p of procs) await p.close().catch(() => {});
    await srv?.close();
  });

  for (const transport of ['direct', 'proxy'] as const)
  it(`${transport}: three MCP clients at once: interleaved navigate/snapshot/click, each in its own tab, none seeing another`, async () => {
    const env = daemonEnv(1500, transport);
    const [a, b, c] = await Promise.all(['alpha', 'beta', 'gamma'].map((n) => spawnMcp(env, undefined, n)));
    procs.push(a, b, c);
    const clients = { a, b, c };
    // Interleaved: all three navigate at once, then snapshot at once, then click at once, twice.
    await Promise.all(Object.entries(clients).map(async ([n, m]) => assert.match((await m.call('browser_navigate', { url: `${srv.origin}/${n}` })).text, new RegExp(`\\nTitle: Page ${n}\\n`))));
    for (let round = 1; round <= 2; round++) {
      const snaps = await Promise.all(Object.values(clients).map((m) => m.call('browser_snapshot')));
      const refs = snaps.map((s, i) => {
        const n = Object.keys(clients)[i];
        assert.match(s.text, new RegExp(`button "(Button|clicked) ${n}`));
        for (const other of Object.keys(clients).filter((o) => o !== n)) assert.doesNotMatch(s.text, new RegExp(`(Button|clicked) ${other}`));
        return /\[([^\]]+)\] button/.exec(s.text)![1];
      });
      const clicks = await Promise.all(Object.values(clients).map((m, i) => m.call('browser_click', { ref: refs[i] })));
      clicks.forEach((r, i) => assert.match(r.text, new RegExp(`clicked ${Object.keys(clients)[i]} ${round}`), r.text));
    }
    for (const [n, m] of Object.entries(clients)) {
      const list = (await m.call('browser_tabs', { action: 'list' })).text;
      assert.equal(list.split('\n').filter((l) => /^\d+\./.test(l)).length, 1, list);
      assert.match(list, new RegExp(`/${n}\\b`));
    }
    // A popup belongs to the client whose page opened it.
    await a.call('browser_navigate', { url: `${srv.origin}/a` });
    const snap = (await a.call('browser_snapshot')).text;
    await a.call('browser_click', { ref: /\[([^\]]+)\] link "open a"/.exec(snap)![1] });
    assert.match((await a.call('browser_tabs', { action: 'list' })).text, /Other a/);
    assert.doesNotMatch((await b.call('browser_tabs', { action: 'list' })).text, /Other a/);

    const st = await status(env);
    assert.equal(st.running, true);
    assert.equal(st.browsers.length, 1, 'one browser for everyone');
    assert.equal(st.sessions.length, 3);
    assert.deepEqual(st.sessions.map((s: any) => s.client).sort(), ['MCP: alpha', 'MCP: beta', 'MCP: gamma']);
    assert.ok(st.sessions.every((s: any) => s.transport === transport));
    const human = await runDaemonCli(env, 'status');
    assert.match(human.stdout, /session .* MCP: beta/);
    assert.match(human.stdout, /tab "Page b"/);

    // Socket and folder are the user's alone; the daemon listens on no TCP port.
    const dir = env.BROWSER_AGENT_DAEMON_DIR;
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(statSync(join(dir, 'daemon.sock')).mode & 0o777, 0o600);
    assert.deepEqual(listeningTcpPorts(st.pid), []);

    // One client killed: its session ends, its tab closes, the others go on.
    const browserPid = st.browsers[0].pid;
    c.process.kill('SIGKILL');
    await until(async () => (await status(env)).sessions.length === 2, 10_000, 'the killed client’s session to end');
    const tabsLeft = (await status(env)).sessions.flatMap((s: any) => s.tabs.map((t: any) => t.url));
    assert.ok(!tabsLeft.some((u: string) => u.endsWith('/c')));
    assert.match((await b.call('browser_snapshot')).text, /clicked b 2/);
    assert.match((await a.call('browser_tabs', { action: 'list' })).text, /Page a/);

    // Everyone leaves: after the idle time the daemon exits, closing its browser and removing the socket.
    await a.close();
    await b.close();
    await until(() => !alive(st.pid), 15_000, 'the idle daemon to exit');
    await until(() => !alive(browserPid), 5000, 'the launched browser to be closed');
    assert.equal(existsSync(join(dir, 'daemon.sock')), false, 'no socket left behind');
  });

  for (const transport of ['direct', 'proxy'] as const)
  it(`${transport}: the daemon killed mid-call: a clear error, its browser gone with it, then a new daemon on the next call`, async () => {
    const env = daemonEnv(1500, transport);
    const m = await spawnMcp(env, undefined, 'survivor');
    procs.push(m);
    await m.call('browser_navigate', { url: `${srv.origin}/a` });
    const before = await status(env);
    const slow = m.call('browser_navigate', { url: `${srv.origin}/slow` });
    await new Promise((r) => setTimeout(r, 800));
    process.kill(before.pid, 'SIGKILL');
    const inFlight = await slow;
    // Proxy: the call's only path is gone. Direct: the call talks to the browser itself and may still
    // finish before the watchdog closes the browser; if not, it fails with the same clear error.
    if (transport === 'proxy' || inFlight.isError) assert.match(inFlight.text, /BROWSER_DISCONNECTED: The session daemon exited/);
    // No orphan: the browser the daemon launched does not outlive it.
    await until(() => !alive(before.browsers[0].pid), 10_000, 'the killed daemon’s browser to be closed');
    const again = await m.call('browser_navigate', { url: `${srv.origin}/b` });
    assert.equal(again.isError, false, again.text);
    assert.match(again.text, /Page b/);
    const after = await status(env);
    assert.notEqual(after.pid, before.pid);
    assert.equal(after.sessions.length, 1);
    await m.close();
    await until(() => !alive(after.pid), 15_000, 'the idle daemon to exit');
    await until(() => !alive(after.browsers[0].pid), 5000, 'no browser left behind');
  });

  it('a second start finds the first; a stale socket file is replaced', async () => {
    const env = daemonEnv(60_000);
    const first = await runDaemonCli(env, 'start');
    assert.match(first.stdout, /started \(pid (\d+)/);
    const pid = Number(/pid (\d+)/.exec(first.stdout)![1]);
    assert.match((await runDaemonCli(env, 'start')).stdout, new RegExp(`already running \\(pid ${pid}`));
    const second = await runDaemonCli(env, 'run');
    assert.equal(second.code, 1);
    assert.match(second.stderr, /already running/);
    assert.equal((await status(env)).pid, pid, 'still the first daemon');
    // Killed hard, it leaves its socket file; the next start replaces it.
    process.kill(pid, 'SIGKILL');
    await until(() => !alive(pid), 5000, 'the daemon to die');
    assert.equal(existsSync(join(env.BROWSER_AGENT_DAEMON_DIR, 'daemon.sock')), true);
    const third = await runDaemonCli(env, 'start');
    assert.match(third.stdout, /started/);
    const stopped = await runDaemonCli(env, 'stop');
    assert.match(stopped.stdout, /stopped/);
    assert.match((await runDaemonCli(env, 'status')).stdout, /not running/);
  });
});
