// Issue 14's faults in the MCP server's default mode, through the session daemon: a hung renderer, a
// browser killed between calls, a client killed. (The --no-daemon cases: test/actions/hung.test.ts,
// test/session/relaunchNotice.test.ts, test/session/ownership.test.ts.)
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { sleep } from '../../src/session/launcher';
import { alive, daemonEnv, runDaemonCli, spawnMcp, until, type McpProc } from '../helpers/daemon';
import { browserProcesses } from '../helpers/procs';
import { startServer, type TestServer } from '../helpers/servers';

/** Hangs its renderer for good 300 ms after load. */
const HUNG = `<!doctype html><title>Hung</title><p>about to hang</p><script>addEventListener('load', () => setTimeout(() => { for (;;) {} }, 300))</script>`;

async function status(env: Record<string, string>): Promise<any> {
  const r = await runDaemonCli(env, 'status', '--json');
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

function profileOf(pid: number): string {
  return /--user-data-dir=(\S+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '))![1];
}

describe('daemon: faults in the default MCP mode (real daemon, real MCP clients, real Chromium)', function () {
  this.timeout(180_000);
  let srv: TestServer;
  const procs: McpProc[] = [];
  before(async () => {
    srv = await startServer({
      '/hung': HUNG,
      '/next': '<!doctype html><title>Next page</title><h1>Next</h1><button>Go on</button>',
      '/big': `<!doctype html><title>Big</title>${Array.from({ length: 300 }, (_, i) => `<p>Paragraph ${i} with some words</p><a href="#${i}">Link ${i}</a><button>Button ${i}</button>`).join('')}`,
      '/publish': '<!doctype html><title>Publish</title><button onclick="document.title = \'published\'">Publish</button>',
    });
  });
  after(async () => {
    for (const p of procs) await p.close().catch(() => {});
    await srv?.close();
  });

  it('a hung page is left within 10 s by navigate, a new tab and closing it; never a false success', async () => {
    const m = await spawnMcp(daemonEnv(1500), ['--headless', '--audit-dir', 'off', '--max-wait-ms', '4000'], 'hung');
    procs.push(m);
    const openHung = async () => {
      const r = await m.call('browser_navigate', { url: `${srv.url}hung` });
      assert.equal(r.isError, false, r.text);
      await sleep(800); // the script starts 300 ms after load
    };
    const timed = async (name: string, args: Record<string, unknown>) => {
      const t0 = Date.now();
      const r = await m.call(name, args);
      const ms = Date.now() - t0;
      assert.ok(ms < 10_000, `${name} took ${ms} ms`);
      return r;
    };

    await openHung();
    const nav = await timed('browser_navigate', { url: `${srv.url}next` });
    assert.equal(nav.isError, false, nav.text);
    assert.match(nav.text, /was hung/);
    assert.match((await m.call('browser_snapshot')).text, /button "Go on"/, 'the tab really shows the new page');

    // A new tab beside a hung one works; closing the hung tab does too.
    await openHung();
    const opened = await timed('browser_tabs', { action: 'new', url: `${srv.url}next` });
    assert.equal(opened.isError, false, opened.text);
    assert.match((await m.call('browser_snapshot')).text, /button "Go on"/);
    const list = (await m.call('browser_tabs', { action: 'list' })).text;
    const tabLines = (text: string) => text.split('\n').filter((l) => /^\d+\./.test(l));
    const hungIndex = tabLines(list).findIndex((l) => /\/hung\b/.test(l));
    assert.ok(hungIndex >= 0, list);
    const closed = await timed('browser_tabs', { action: 'close', index: hungIndex });
    assert.equal(closed.isError, false, closed.text);
    const after = (await m.call('browser_tabs', { action: 'list' })).text;
    assert.doesNotMatch(after, /\/hung\b/, 'the hung tab is gone');
    assert.equal(tabLines(after).length, 1, after);
    await m.close();
  });

  it('the browser killed between calls: the next result says it was relaunched, old refs give STALE_REF', async () => {
    const env = daemonEnv(1500);
    const m = await spawnMcp(env, undefined, 'relaunch');
    procs.push(m);
    await m.call('browser_navigate', { url: `${srv.url}publish` });
    const ref = /\[([^\]]+)\] button "Publish"/.exec((await m.call('browser_snapshot')).text)![1];
    const before = await status(env);
    const browserPid = before.browsers[0].pid;
    process.kill(-browserPid, 'SIGKILL');
    await until(() => !alive(browserPid), 10_000, 'the browser to die');
    await sleep(300);

    const click = await m.call('browser_click', { ref });
    assert.equal(click.isError, true, click.text);
    assert.match(click.text, /^Note: the browser had exited or crashed since the last call and was relaunched\./);
    assert.match(click.text, new RegExp(`\\nSTALE_REF: Ref ${ref} \\(button "Publish"\\) is no longer on the page`));
    const snap = await m.call('browser_snapshot');
    assert.equal(snap.isError, false, snap.text);
    assert.doesNotMatch(snap.text, /relaunched/, 'only the first result carries the notice');
    const now = await status(env);
    assert.equal(now.pid, before.pid, 'the same daemon relaunched it');
    assert.notEqual(now.browsers[0].pid, browserPid);
    assert.equal(now.sessions.length, 1);
    await m.close();
  });

  it('20 concurrent read-only calls (snapshot, screenshot, find) from two clients at once are all answered', async () => {
    const env = daemonEnv(1500);
    const clients = await Promise.all(['one', 'two'].map((n) => spawnMcp(env, undefined, n)));
    procs.push(...clients);
    await Promise.all(clients.map((m) => m.call('browser_navigate', { url: `${srv.url}big` })));
    const calls = Array.from({ length: 20 }, (_, i) => {
      const [name, args] = i % 3 === 0 ? ['browser_snapshot', {}] : i % 3 === 1 ? ['browser_screenshot', {}] : ['browser_find', { query: `Button ${i}` }];
      const t0 = Date.now();
      return clients[i % 2].call(name as string, args).then((r) => ({ name, r, ms: Date.now() - t0 }));
    });
    const done = await Promise.all(calls);
    for (const { name, r } of done) assert.equal(r.isError, false, `${name}: ${r.text}`);
    assert.ok(done.filter((d) => d.name === 'browser_screenshot').every((d) => d.r.images === 1));
    const ms = done.map((d) => d.ms).sort((x, y) => x - y);
    console.log(`      20 concurrent calls through the daemon: median ${ms[10]} ms, max ${ms[19]} ms`);
    for (const m of clients) await m.close();
  });

  it('SIGKILL of the only client: its session ends, and the idle daemon leaves 0 browser processes and no profile', async () => {
    const env = daemonEnv(1500);
    const m = await spawnMcp(env, undefined, 'doomed');
    procs.push(m);
    await m.call('browser_navigate', { url: `${srv.url}next` });
    const st = await status(env);
    const browserPid = st.browsers[0].pid;
    const profile = profileOf(browserPid);
    assert.ok(browserProcesses({ pgid: browserPid }).length >= 2);
    m.process.kill('SIGKILL');
    // The session ends at once (its pid is gone), the daemon 1.5 s later, and its browser with it.
    await until(() => !alive(st.pid), 10_000, 'the daemon to end the session and exit when idle');
    await until(() => browserProcesses({ pgid: browserPid, profileDir: profile }).length === 0, 5000, '0 browser processes');
    assert.equal(existsSync(profile), false, 'the temporary profile is deleted');
    assert.equal(existsSync(`${env.BROWSER_AGENT_DAEMON_DIR}/daemon.sock`), false);
  });
});
