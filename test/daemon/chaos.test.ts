// Process chaos in the default MCP mode, through the real session daemon (dist/daemon.js), real MCP servers
// (dist/mcp.js over stdio with the SDK's client) and real Chromium: the daemon's browser frozen with SIGSTOP,
// and the daemon SIGKILLed while two servers wait on long calls. (The daemon killed with one client, a browser
// killed between calls, a killed client: test/daemon/daemon.test.ts and faults.test.ts.)
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alive, daemonEnv, runDaemonCli, spawnMcp, until, type McpProc } from '../helpers/daemon';
import { browserProcesses, processes } from '../helpers/procs';
import { startServer, type TestServer } from '../helpers/servers';

/** Tells an answer from waiting out a 30 s deadline, with room for a loaded 2-core machine. */
const BOUND_MS = 20_000;

async function status(env: Record<string, string>): Promise<any> {
  const r = await runDaemonCli(env, 'status', '--json');
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

function profileOf(pid: number): string {
  return /--user-data-dir=(\S+)/.exec(processes().find((p) => p.pid === pid)!.cmdline)![1];
}

/** Daemon processes started for this daemon folder (it reaches them in their environment). */
function daemonsOf(dir: string): number[] {
  return processes()
    .filter((p) => / run$/.test(p.cmdline.trim()) && p.cmdline.includes('daemon.js'))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p.pid}/environ`, 'utf8').split('\0').includes(`BROWSER_AGENT_DAEMON_DIR=${dir}`);
      } catch {
        return false;
      }
    })
    .map((p) => p.pid);
}

async function timed(m: McpProc, name: string, args: Record<string, unknown> = {}) {
  const t0 = Date.now();
  const r = await m.call(name, args);
  return { ...r, ms: Date.now() - t0 };
}

describe('daemon: process chaos (real daemon, real MCP servers, real Chromium)', function () {
  this.timeout(180_000);
  let srv: TestServer;
  const procs: McpProc[] = [];
  const frozen: number[] = [];
  before(async () => {
    srv = await startServer({
      '/': '<!doctype html><title>Start</title><h1>Start</h1><button>Press me</button>',
      '/next': '<!doctype html><title>Next page</title><h1>Next</h1>',
    });
  });
  afterEach(async () => {
    for (const p of procs.splice(0)) await p.close().catch(() => {});
    for (const g of frozen.splice(0)) {
      try {
        process.kill(-g, 'SIGKILL');
      } catch {
        /* gone, as it should be */
      }
    }
  });
  after(() => srv?.close());

  for (const transport of ['direct', 'proxy'] as const)
    it(`${transport}: the daemon's browser frozen (SIGSTOP): the call fails within seconds saying it stopped answering, the next call gets a new browser, the frozen one is killed`, async () => {
      // A long idle time: the daemon itself must notice the frozen browser, not exit and take it along.
      const env = daemonEnv(60_000, transport);
      const m = await spawnMcp(env, undefined, `frozen-${transport}`);
      procs.push(m);
      assert.equal((await m.call('browser_navigate', { url: srv.url })).isError, false);
      const before = await status(env);
      const browserPid: number = before.browsers[0].pid;
      const profile = profileOf(browserPid);
      frozen.push(browserPid);
      process.kill(-browserPid, 'SIGSTOP');

      const snap = await timed(m, 'browser_snapshot');
      assert.equal(snap.isError, true, snap.text);
      assert.match(snap.text, /^BROWSER_DISCONNECTED: The browser stopped answering/);
      assert.ok(snap.ms < BOUND_MS, `snapshot took ${snap.ms} ms`);
      // Before: every later call failed too (ATTACH_FAILED after a 10 s handshake, or a hung proxy), for ever.
      const nav = await timed(m, 'browser_navigate', { url: `${srv.url}next` });
      assert.equal(nav.isError, false, nav.text);
      assert.match(nav.text, /relaunched/);
      assert.ok(nav.ms < BOUND_MS, `the next call took ${nav.ms} ms`);
      const after = await status(env);
      assert.equal(after.pid, before.pid, 'the same daemon');
      assert.notEqual(after.browsers[0].pid, browserPid, 'a new browser');
      assert.equal(after.browsers.length, 1);
      await until(() => browserProcesses({ pgid: browserPid, profileDir: profile }).length === 0, 8000, 'the frozen browser to be killed');
      await until(() => !existsSync(profile), 8000, 'its temporary profile to be deleted');
      await runDaemonCli(env, 'stop');
    });

  it('a record of a browser left by a killed daemon, whose pid now belongs to another process: that process is never touched, the leftover profile is deleted', async () => {
    const env = daemonEnv(60_000);
    // A stranger that took the dead browser's pid, leading a process group of its own (as Chromium did).
    const stranger = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
    const profile = mkdtempSync(join(tmpdir(), 'browser-agent-profile-'));
    try {
      writeFileSync(join(env.BROWSER_AGENT_DAEMON_DIR, 'browsers.json'), JSON.stringify([{ pid: stranger.pid, wsEndpoint: 'ws://127.0.0.1:9/devtools/browser/x', userDataDir: profile, temporaryProfile: true, headless: true, key: 'launch headless' }]));
      const started = await runDaemonCli(env, 'start');
      assert.match(started.stdout, /started/, started.stderr);
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(alive(stranger.pid!), 'the process that reuses the pid is left alone');
      assert.equal(existsSync(profile), false, 'the dead browser’s temporary profile is deleted');
      assert.deepEqual((await status(env)).browsers, [], 'nothing adopted');
    } finally {
      await runDaemonCli(env, 'stop');
      stranger.kill('SIGKILL');
    }
  });

  it('the daemon SIGKILLed while two servers wait on long calls: both get a clear error at once, the next calls start one new daemon, no browser is left', async () => {
    const env = daemonEnv(1500);
    const [a, b] = await Promise.all(['one', 'two'].map((n) => spawnMcp(env, undefined, n)));
    procs.push(a, b);
    await Promise.all([a, b].map((m) => m.call('browser_navigate', { url: srv.url })));
    const before = await status(env);
    assert.equal(before.sessions.length, 2);
    const browserPid: number = before.browsers[0].pid;
    const waits = [a, b].map((m) => timed(m, 'browser_wait', { text: 'never shows up', timeoutMs: 30_000 }));
    await new Promise((r) => setTimeout(r, 800));
    process.kill(before.pid, 'SIGKILL');
    for (const w of await Promise.all(waits)) {
      assert.equal(w.isError, true, w.text);
      assert.match(w.text, /^BROWSER_DISCONNECTED: /);
      assert.ok(w.ms < BOUND_MS, `the wait ended after ${w.ms} ms`);
    }
    await until(() => browserProcesses({ pgid: browserPid }).length === 0, 10_000, 'the killed daemon’s browser to go with it');
    const again = await Promise.all([a, b].map((m, i) => m.call('browser_navigate', { url: `${srv.url}${i ? 'next' : ''}` })));
    for (const r of again) assert.equal(r.isError, false, r.text);
    const after = await status(env);
    assert.notEqual(after.pid, before.pid);
    assert.equal(after.sessions.length, 2, 'both servers are in the one new daemon');
    assert.deepEqual(daemonsOf(env.BROWSER_AGENT_DAEMON_DIR), [after.pid], 'one daemon runs, not one per server');
    await Promise.all([a, b].map((m) => m.close()));
    await until(() => !alive(after.pid), 15_000, 'the idle daemon to exit');
    await until(() => browserProcesses({ pgid: after.browsers[0].pid }).length === 0, 5000, 'no browser left behind');
  });
});
