// Fleets on a real remote-browser engine (issue 33): a browserless server from npm (installed on first use into
// ~/.cache/browser-agent-browserless, see test/fleet/engine/install.mjs), a pool of 4 and a token, driven by the
// real MCP server bin through the session daemon, as four MCP clients on one machine would. Each session is one
// connection and one remote browser (counted in the engine's log, in its session list and in the clients' TCP
// connections), a fifth gets a pool-full error with the fix, a wrong token a clear 401, a killed remote browser
// is replaced on the next call with a notice, and nothing of the run is left in the process table.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inCI } from '../e2e/host/verdict.mjs';
import { MARK_VAR, markedProcesses } from '../e2e/host/processes.mjs';
import { connectionsTo, daemonEnv, runDaemonCli, spawnMcp, until, type McpProc } from '../helpers/daemon';
import { startServer, type TestServer } from '../helpers/servers';
import { startBrowserless, type BrowserlessServer } from './engine/browserless';

const TOKEN = 'fleet-secret-7f3a';
const POOL = 4;

const PAGE = `<!doctype html><title>Greeter</title>
<label>Your name <input id="name"></label>
<button onclick="document.getElementById('out').textContent = 'Hello, ' + document.getElementById('name').value + '!'">Greet</button>
<p id="out"></p>`;

describe('fleet: MCP sessions on a real browserless engine (a pool of 4, token auth)', function () {
  this.timeout(180_000);
  let engine: BrowserlessServer | undefined;
  let site: TestServer;
  let env: Record<string, string>;
  const clients: McpProc[] = [];
  const work = mkdtempSync(join(tmpdir(), 'ba-fleet-'));

  before(async function () {
    // The first run installs the engine (~580 MB, 0.5–2 minutes); later runs find it in the cache.
    this.timeout(20 * 60_000);
    try {
      engine = await startBrowserless({ token: TOKEN, pool: POOL, queued: 0, logFile: join(work, 'browserless.log'), log: (s) => process.stdout.write(`      [browserless] ${s}`) });
    } catch (e) {
      if (inCI()) throw e;
      // Without the npm registry (an offline machine) the engine cannot be installed: say so and skip here; CI fails instead.
      console.log(`      skipped: could not install or start browserless here: ${(e as Error).message.split('\n')[0]}`);
      this.skip();
    }
    site = await startServer({ '/greeter': PAGE });
    // Our MCP servers and the daemon they start carry the engine's run mark: the leak check finds them too.
    env = { ...daemonEnv(1500), [MARK_VAR]: engine!.runId };
  });

  after(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
    if (env) await runDaemonCli(env, 'stop');
    await engine?.stop();
    for (const p of engine?.leftovers() ?? []) process.kill(p.pid, 'SIGKILL');
    await site?.close();
  });

  const mcp = async (name: string, extra: string[] = [], endpoint = engine!.endpoint) => {
    const c = await spawnMcp(env, ['--cdp-url', endpoint, '--audit-dir', 'off', '--allow-confirm-actions', ...extra], name);
    clients.push(c);
    return c;
  };
  const closeAll = async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    // A session's end closes its connection: the engine frees the browser and the pool slot.
    await until(async () => (await engine!.browsers()).length === 0, 30_000, 'the engine to have no browser left');
  };
  const ref = (snapshot: string, line: RegExp) => {
    const m = line.exec(snapshot);
    assert.ok(m, `no ${line} in:\n${snapshot}`);
    return m[1];
  };
  /** Navigate, snapshot, type, click, and read the page's answer: every step through the engine's browser. */
  const greet = async (c: McpProc, name: string) => {
    const nav = await c.call('browser_navigate', { url: `${site.origin}/greeter?who=${encodeURIComponent(name)}` });
    assert.ok(!nav.isError, nav.text);
    const snap = await c.call('browser_snapshot');
    assert.ok(!snap.isError, snap.text);
    const typed = await c.call('browser_type', { ref: ref(snap.text, /^\[(\d+)\] textbox "Your name"/m), text: name });
    assert.ok(!typed.isError, typed.text);
    const clicked = await c.call('browser_click', { ref: ref(snap.text, /^\[(\d+)\] button "Greet"/m) });
    assert.ok(!clicked.isError, clicked.text);
    const after = await c.call('browser_snapshot');
    assert.match(after.text, new RegExp(`Hello, ${name}!`));
    return after.text;
  };
  const ourPids = async () => {
    const status = JSON.parse((await runDaemonCli(env, 'status', '--json')).stdout);
    return [status.pid, ...clients.map((c) => c.process.pid!)];
  };
  const port = () => Number(new URL(engine!.origin).port);

  it('gives each of 4 concurrent sessions its own remote browser on one connection, and all 4 finish the task', async () => {
    const launched = engine!.launches();
    const agents = await Promise.all([1, 2, 3, 4].map((n) => mcp(`agent-${n}`)));
    const pages = await Promise.all(agents.map((c, i) => greet(c, `agent ${i + 1}`)));
    // Each session saw only its own page: its own browser.
    pages.forEach((text, i) => assert.doesNotMatch(text, new RegExp(`Hello, agent (?!${i + 1}!)`)));
    assert.equal(engine!.launches() - launched, POOL, 'the engine launched exactly one browser per session');
    const browsers = await engine!.browsers();
    assert.equal(browsers.length, POOL, JSON.stringify(browsers));
    assert.deepEqual(browsers.map((b) => b.connections), [1, 1, 1, 1], 'one connection per remote browser');
    assert.equal(connectionsTo(port(), await ourPids()), POOL, 'one TCP connection to the engine per session (the daemon’s), none from the clients');
    const status = await runDaemonCli(env, 'status', '--json');
    assert.doesNotMatch(status.stdout, new RegExp(TOKEN), 'the daemon never shows the token');
    assert.equal(JSON.parse(status.stdout).sessions.length, POOL);
  });

  it('gives a fifth session a pool-full error that names the endpoint without its token and says what to do', async () => {
    const launched = engine!.launches();
    const fifth = await mcp('agent-5');
    const r = await fifth.call('browser_navigate', { url: `${site.origin}/greeter` });
    assert.ok(r.isError, r.text);
    assert.match(r.text, /ATTACH_FAILED/);
    assert.match(r.text, /ws:\/\/127\.0\.0\.1:\d+\/\?token=\*\*\* has no free browser: HTTP 429/);
    assert.match(r.text, /Hint: .*CONCURRENT and QUEUED.*--remote-browser shared/s);
    assert.doesNotMatch(r.text, /chrome:\/\/inspect/);
    assert.doesNotMatch(r.text, new RegExp(TOKEN));
    assert.equal(engine!.launches(), launched, 'the refused connection cost no browser');
  });

  it('replaces a remote browser the engine killed on the next call, and says that the old pages are gone', async () => {
    // Three sessions end: their browsers and pool slots are freed at once, not when the daemon exits.
    const [first, ...rest] = clients.splice(0);
    await Promise.all(rest.map((c) => c.close()));
    clients.push(first);
    await until(async () => (await engine!.browsers()).length === 1, 30_000, 'one browser left');
    await engine!.killAll();
    await until(async () => JSON.parse((await runDaemonCli(env, 'status', '--json')).stdout).sessions.length === 0, 30_000, 'the daemon to end the session whose browser went');
    const launched = engine!.launches();
    const r = await first.call('browser_snapshot');
    assert.ok(!r.isError, r.text);
    assert.match(r.text, /connection to the remote browser was lost .* a new remote browser was opened/);
    assert.equal(engine!.launches() - launched, 1);
    await greet(first, 'agent one again');
    await closeAll();
  });

  it('with --remote-browser shared, puts the sessions in one remote browser on one connection, each in its own tab', async () => {
    const launched = engine!.launches();
    const [a, b] = await Promise.all([mcp('shared-a', ['--remote-browser', 'shared']), mcp('shared-b', ['--remote-browser', 'shared'])]);
    await Promise.all([greet(a, 'shared a'), greet(b, 'shared b')]);
    assert.equal(engine!.launches() - launched, 1);
    assert.deepEqual((await engine!.browsers()).map((x) => x.connections), [1]);
    assert.equal(connectionsTo(port(), await ourPids()), 1);
    // The last session's end closes the connection: the slot is free again.
    await closeAll();
  });

  it('without the daemon (--no-daemon), makes exactly one connection', async () => {
    const launched = engine!.launches();
    const solo = await mcp('solo', ['--no-daemon']);
    await greet(solo, 'solo');
    assert.equal(engine!.launches() - launched, 1);
    assert.equal(connectionsTo(port(), [solo.process.pid!]), 1);
    await closeAll();
  });

  it('gives a wrong token a clear 401 error, with the token hidden and the fix in the hint', async () => {
    const wrong = 'not-the-token-42';
    const launched = engine!.launches();
    for (const extra of [[], ['--no-daemon']]) {
      const c = await mcp('wrong-token', extra, engine!.endpoint.replace(TOKEN, wrong));
      const r = await c.call('browser_snapshot');
      assert.ok(r.isError, r.text);
      assert.match(r.text, /ATTACH_FAILED: ws:\/\/127\.0\.0\.1:\d+\/\?token=\*\*\* refused the connection: HTTP 401 \(a wrong or missing token or API key\)/);
      assert.match(r.text, /Hint: Check the token or API key/);
      assert.doesNotMatch(r.text, new RegExp(wrong));
    }
    assert.equal(engine!.launches(), launched);
    await closeAll();
  });

  it('leaves nothing running: no MCP server, daemon, engine or Chromium of this run', async () => {
    await closeAll();
    await runDaemonCli(env, 'stop');
    assert.notEqual(await engine!.stop(), 'killed', 'browserless stopped on SIGTERM');
    await until(() => markedProcesses(engine!.runId).length === 0, 15_000, 'every process of this run to exit').catch(() => {
      assert.deepEqual(markedProcesses(engine!.runId), []);
    });
  });
});
