import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep } from '../../src/session/launcher';
import { crossSite } from '../helpers/chromium';
import { blockedRoutes, routesTo, startLoggedServer, type LoggedServer } from '../helpers/loggedServers';
import { HEADLESS_ARGS, startMcp, type McpProcess } from '../helpers/mcpProcess';
import { daemonEnv } from '../helpers/daemon';

/**
 * Issue 13 through the real MCP server: two real loopback servers, one of them blocked; every route a
 * model or a page can take to the blocked one leaves its request log empty, and the model is told
 * which rule stopped what. Each route runs first against a server without rules (the control: the
 * route does reach the blocked server, so the guarded run can fail).
 */

interface Run {
  mcp: McpProcess;
  outputs: string[];
  downloads: string;
}

const refOf = (snapshot: string, role: string, name: string) => {
  const m = new RegExp(`\\[([\\w:]+)\\] ${role} "${name}`).exec(snapshot);
  if (!m) throw new Error(`no ${role} "${name}" in\n${snapshot}`);
  return m[1];
};

async function until(fn: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end && !fn()) await sleep(50);
  return fn();
}

// In the server's own browser (--no-daemon), and through a session daemon of the test's own, the MCP server's
// default: there the two servers are two clients of one shared browser, each with its own rules.
for (const via of ['its own browser', 'the session daemon'] as const)
describe(`mcp (${via}): a blocked origin gets nothing, whatever the route (two logged loopback servers)`, function () {
  this.timeout(300_000);
  let allowed: LoggedServer;
  let blocked: LoggedServer;
  let A: string;
  let B: string;
  let open: Run;
  let guarded: Run;
  const work = mkdtempSync(join(tmpdir(), 'ba-blocked-'));
  const daemon = via === 'the session daemon' ? daemonEnv(1500) : undefined;
  const downloadedUnguarded: string[] = [];

  async function start(extra: string[], name: string): Promise<Run> {
    const downloads = join(work, name);
    const mcp = await startMcp([...HEADLESS_ARGS, '--allow-confirm-actions', '--downloads-dir', downloads, ...extra], 'ignore', { daemonEnv: daemon });
    const outputs: string[] = [];
    const call = mcp.call.bind(mcp);
    mcp.call = async (tool, args, t) => {
      const r = await call(tool, args, t);
      outputs.push(`${tool}: ${r.text}`);
      return r;
    };
    return { mcp, outputs, downloads };
  }

  before(async () => {
    blocked = await startLoggedServer(blockedRoutes());
    B = blocked.origin;
    allowed = await startLoggedServer({
      ...routesTo(B, crossSite(B)),
      '/formgetbtn': `<title>form get</title><form action="${B}/formget" method=get><input name=card value=4111111111111111 aria-label=Card><button>Send</button></form>`,
      '/formpostbtn': `<title>form post</title><form action="${B}/formpost" method=post><input name=card value=4111111111111111 aria-label=Card><button>Send</button></form>`,
    });
    A = allowed.origin;
    [open, guarded] = await Promise.all([start([], 'open'), start(['--blocked-origins', `127.0.0.1:${blocked.port},localhost:${blocked.port}`], 'guarded')]);
  });
  after(async () => {
    await open?.mcp.close();
    await guarded?.mcp.close();
    await allowed?.close();
    await blocked?.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** Loads `path` of the allowed server and returns its snapshot; waits out stragglers of the last route, then clears the log. */
  async function onPage(r: Run, path: string): Promise<string> {
    await r.mcp.call('browser_tabs', { action: 'list' });
    const nav = await r.mcp.call('browser_navigate', { url: `${A}${path}` });
    assert.equal(nav.isError, false, nav.text);
    const snap = (await r.mcp.call('browser_snapshot')).text;
    for (let n = -1; n !== blocked.log.length;) {
      n = blocked.log.length;
      await sleep(300);
    }
    blocked.log.length = 0;
    return snap;
  }

  const clickOn = (path: string, role: string, name: string) => async (r: Run) => {
    const snap = await onPage(r, path);
    await r.mcp.call('browser_click', { ref: refOf(snap, role, name) });
  };
  const navigateTo = (url: () => string, then?: (r: Run) => Promise<void>) => async (r: Run) => {
    await onPage(r, '/');
    await r.mcp.call('browser_navigate', { url: url() });
    await then?.(r);
  };
  /** A page that leaves later on its own: the model looks again after a while. */
  const lookLater = async (r: Run) => {
    await r.mcp.call('browser_wait', { timeMs: 2600 });
    await r.mcp.call('browser_snapshot');
  };

  const routes: { name: string; run: (r: Run) => Promise<void>; rule?: RegExp; after?: (r: Run) => void }[] = [
    { name: 'direct navigation', run: navigateTo(() => `${B}/direct`) },
    { name: 'direct navigation, host spelled 0x7f.1', run: navigateTo(() => `http://0x7f.1:${blocked.port}/direct`) },
    { name: '302 redirect', run: navigateTo(() => `${A}/r302`) },
    { name: '302 chain through the allowed origin', run: navigateTo(() => `${A}/r1`) },
    { name: 'link click', run: clickOn('/link', 'link', 'go') },
    { name: 'window.open popup', run: clickOn('/popup', 'button', 'open') },
    { name: 'target=_blank', run: clickOn('/blank', 'link', 'open') },
    { name: 'meta refresh 0 s', run: navigateTo(() => `${A}/meta0`) },
    { name: 'meta refresh 2 s', run: navigateTo(() => `${A}/meta2`, lookLater) },
    { name: 'script navigation 1.5 s after load', run: navigateTo(() => `${A}/timed`, lookLater) },
    {
      name: 'cross-site iframe (its button gets no ref)',
      run: navigateTo(
        () => `${A}/oopif`,
        async (r) => {
          const snap = (await r.mcp.call('browser_snapshot')).text;
          if (r === guarded) assert.doesNotMatch(snap, /blocked button/);
        },
      ),
    },
    { name: 'form GET', run: clickOn('/formgetbtn', 'button', 'Send') },
    { name: 'form POST (the form data)', run: clickOn('/formpostbtn', 'button', 'Send') },
    { name: 'new tab through a redirect', run: async (r) => (await onPage(r, '/'), void (await r.mcp.call('browser_tabs', { action: 'new', url: `${A}/r302` }))) },
    { name: 'image, script and stylesheet', run: navigateTo(() => `${A}/resources`) },
    { name: 'fetch, XHR and beacon', run: navigateTo(() => `${A}/calls`) },
    { name: 'WebSocket', run: navigateTo(() => `${A}/socket`) },
    { name: 'fetch from a worker', run: navigateTo(() => `${A}/worker`) },
    {
      name: 'fetch from browser_evaluate',
      run: async (r) => {
        await onPage(r, '/');
        const res = await r.mcp.call('browser_evaluate', { script: `try { 'status ' + (await fetch('${B}/eval')).status } catch (e) { 'failed: ' + e.message }` });
        if (r === guarded) assert.match(res.text, /failed: Failed to fetch/);
      },
    },
    {
      name: 'download (no file written)',
      run: clickOn('/download', 'link', 'get'),
      after: (r) => {
        // Through the daemon both runs are clients of one browser: the open run's file must land in its own folder
        // only, and the guarded run must add a file to neither.
        const list = (d: string) => {
          try {
            return readdirSync(d).map((f) => join(d, f));
          } catch {
            return [];
          }
        };
        const files = [...list(open.downloads), ...list(guarded.downloads)];
        if (r === guarded) assert.deepEqual(files.filter((f) => !downloadedUnguarded.includes(f)), [], 'no file from the blocked origin');
        else {
          assert.ok(list(r.downloads).length > 0, `unguarded, the download is saved in ${r.downloads}`);
          assert.deepEqual(list(guarded.downloads), [], 'and not in the other client\'s folder');
          downloadedUnguarded.push(...files);
        }
      },
    },
  ];

  for (const route of routes) {
    it(`${route.name}: the blocked server gets nothing and the model is told the rule`, async () => {
      // Control: with no rules the route reaches the blocked server.
      open.outputs.length = 0;
      await route.run(open);
      assert.ok(await until(() => blocked.log.length > 0, 6000), `unguarded, ${route.name} should reach the blocked server (${open.outputs.join('\n')})`);
      await until(() => false, route.after ? 800 : 0);
      route.after?.(open);

      guarded.outputs.length = 0;
      await route.run(guarded);
      await sleep(1000);
      assert.deepEqual(blocked.log, [], `guarded, the blocked server was reached via ${route.name}:\n${guarded.outputs.join('\n')}`);
      route.after?.(guarded);
      // A request stopped after the action's result was composed (a worker's, under load) is told by the next call.
      await guarded.mcp.call('browser_tabs', { action: 'list' });
      const told = guarded.outputs.join('\n');
      assert.match(told, route.rule ?? /BLOCKED_BY_POLICY: .*(rule blocked-origin|matches the blocked origin)/, `the model is told which rule fired:\n${told}`);
    });
  }

  it('a request stopped after the action returned is named by the next call, once', async () => {
    await guarded.mcp.call('browser_navigate', { url: `${A}/` });
    blocked.log.length = 0;
    const nav = await guarded.mcp.call('browser_navigate', { url: `${A}/late` });
    assert.doesNotMatch(nav.text, /after-load/, 'the page asks 1.5 s after its load, after the result');
    await sleep(2500);
    const next = await guarded.mcp.call('browser_snapshot', {});
    assert.match(next.text, /BLOCKED_BY_POLICY: since the last call, an? \w+ request to <page-content id=\w+>http:\/\/127\.0\.0\.1:\d+\/after-load<\/page-content id=\w+> was stopped before it was sent \(rule blocked-origin: /, next.text);
    const again = await guarded.mcp.call('browser_snapshot', {});
    assert.doesNotMatch(again.text, /since the last call/, 'told once');
    assert.deepEqual(blocked.log, []);
  });

  it('an allow list: resources the page pulls from another origin are stopped and named', async () => {
    const r = await start(['--allowed-origins', `127.0.0.1:${allowed.port}`], 'allow');
    try {
      await r.mcp.call('browser_navigate', { url: `${A}/` });
      blocked.log.length = 0;
      const nav = await r.mcp.call('browser_navigate', { url: `${A}/resources` });
      await sleep(800);
      assert.equal(nav.isError, false, nav.text);
      assert.deepEqual(blocked.log, []);
      assert.match(nav.text, /BLOCKED_BY_POLICY: an? (image|script|stylesheet) request to .* \(rule not-allowed-origin/, nav.text);
      const direct = await r.mcp.call('browser_navigate', { url: `${B}/direct` });
      assert.ok(direct.isError);
      assert.match(direct.text, /is not in the allowed origins \(127\.0\.0\.1:\d+\)/);
      assert.deepEqual(blocked.log, []);
    } finally {
      await r.mcp.close();
    }
  });
});
