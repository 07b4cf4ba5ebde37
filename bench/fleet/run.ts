// npm run bench:fleet — N MCP sessions at once (BENCH_N, default 4) through the session daemon, each doing
// navigate → snapshot, then BENCH_ROUNDS rounds (default 5) of snapshot, type, click on a small form:
//   - on a real browserless engine (a pool of N, token auth), a remote browser per session (the default);
//   - on the same engine with --remote-browser shared (one remote browser, a tab per session);
//   - on a local headless Chromium the daemon launches (one browser, a tab per session).
// Prints, per setup: the time from starting the MCP server to its first snapshot, the median and slowest time of
// each action, and, for the engine's pool, what an (N+1)th session gets and how fast. The engine is installed on
// first use as test/fleet/browserless.test.ts does (~/.cache/browser-agent-browserless).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startBrowserless, type BrowserlessServer } from '../../test/fleet/engine/browserless';

// out/bench/fleet/run.js → the repository.
const root = join(__dirname, '..', '..', '..');
const MCP = join(root, 'dist', 'mcp.js');
const DAEMON = join(root, 'dist', 'daemon.js');
const N = Number(process.env.BENCH_N ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TOKEN = 'bench-fleet-token';

const PAGE = `<!doctype html><title>Greeter</title>
<label>Your name <input id="name"></label>
<button onclick="document.getElementById('out').textContent = 'Hello, ' + document.getElementById('name').value + '!'">Greet</button>
<p id="out"></p>`;

const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const max = (a: number[]) => Math.max(...a);
const fmt = (n: number) => `${Math.round(n).toLocaleString('en')} ms`;

interface Session {
  client: Client;
  call(tool: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean; ms: number }>;
}

async function open(env: Record<string, string>, args: string[], name: string): Promise<Session> {
  const client = new Client({ name, version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [MCP, ...args, '--audit-dir', 'off', '--allow-confirm-actions'], env, stderr: 'ignore' }));
  return {
    client,
    async call(tool, a = {}) {
      const t0 = performance.now();
      const r: any = await client.callTool({ name: tool, arguments: a }, undefined, { timeout: 120_000 });
      const text = r.content.filter((c: any) => c.type === 'text').map((c: any) => c.text).join('\n');
      return { text, isError: !!r.isError, ms: performance.now() - t0 };
    },
  };
}

function daemonEnv(): { env: Record<string, string>; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ba-bench-fleet-'));
  return { dir, env: { ...(process.env as Record<string, string>), BROWSER_AGENT_DAEMON_DIR: dir, BROWSER_AGENT_DAEMON_IDLE_MS: '1500', BROWSER_AGENT_DAEMON_SCRIPT: DAEMON } };
}

const ref = (snapshot: string, line: RegExp) => {
  const m = line.exec(snapshot);
  if (!m) throw new Error(`no ${line} in:\n${snapshot}`);
  return m[1];
};

interface Result {
  setup: string;
  firstSnapshot: number[];
  actions: Record<'snapshot' | 'type' | 'click', number[]>;
  errors: string[];
}

/** N sessions at once: start → navigate → first snapshot, then ROUNDS of snapshot, type, click each. */
async function run(setup: string, args: string[], site: string, keep?: (sessions: Session[]) => Promise<void>): Promise<Result> {
  const { env, dir } = daemonEnv();
  const res: Result = { setup, firstSnapshot: [], actions: { snapshot: [], type: [], click: [] }, errors: [] };
  const sessions: Session[] = [];
  try {
    await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const t0 = performance.now();
        const s = await open(env, args, `agent-${i + 1}`);
        sessions.push(s);
        const nav = await s.call('browser_navigate', { url: `${site}/greeter?n=${i}` });
        if (nav.isError) return void res.errors.push(nav.text.split('\n')[0]);
        const snap = await s.call('browser_snapshot');
        res.firstSnapshot.push(performance.now() - t0);
        for (let r = 0; r < ROUNDS; r++) {
          const shot = await s.call('browser_snapshot');
          res.actions.snapshot.push(shot.ms);
          const typed = await s.call('browser_type', { ref: ref(snap.text, /^\[(\d+)\] textbox "Your name"/m), text: `agent ${i + 1} round ${r}` });
          res.actions.type.push(typed.ms);
          const clicked = await s.call('browser_click', { ref: ref(snap.text, /^\[(\d+)\] button "Greet"/m) });
          res.actions.click.push(clicked.ms);
          for (const x of [shot, typed, clicked]) if (x.isError) res.errors.push(x.text.split('\n')[0]);
        }
      }),
    );
    await keep?.(sessions);
  } finally {
    await Promise.all(sessions.map((s) => s.client.close().catch(() => undefined)));
    const { execFileSync } = await import('node:child_process');
    try {
      execFileSync(process.execPath, [DAEMON, 'stop'], { env, timeout: 30_000, stdio: 'ignore' });
    } catch {
      /* already gone */
    }
    rmSync(dir, { recursive: true, force: true });
  }
  return res;
}

async function main() {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(PAGE);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const site = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const work = mkdtempSync(join(tmpdir(), 'ba-bench-fleet-engine-'));
  let engine: BrowserlessServer | undefined;
  const results: Result[] = [];
  let poolFull = '';
  try {
    engine = await startBrowserless({ token: TOKEN, pool: N, queued: 0, logFile: join(work, 'browserless.log'), log: (s) => process.stderr.write(`[browserless] ${s}`) });
    results.push(
      await run('engine, a browser per session', ['--cdp-url', engine.endpoint], site, async () => {
        // The pool is full now: what an extra session gets, and how fast.
        const { env, dir } = daemonEnv();
        const t0 = performance.now();
        const extra = await open(env, ['--cdp-url', engine!.endpoint], 'extra');
        const r = await extra.call('browser_navigate', { url: `${site}/greeter` });
        const ms = performance.now() - t0;
        await extra.client.close().catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
        poolFull = `${r.isError ? 'error' : 'NO ERROR'} after ${fmt(ms)} (server start included): ${r.text.split('\n')[0].replace(/token=[^&\s]+/g, 'token=***').slice(0, 160)}`;
      }),
    );
    results.push(await run('engine, one shared browser', ['--cdp-url', engine.endpoint, '--remote-browser', 'shared'], site));
  } catch (e) {
    console.error(`browserless could not run here: ${(e as Error).message.split('\n')[0]}`);
  } finally {
    await engine?.stop();
    for (const p of engine?.leftovers() ?? []) process.kill(p.pid, 'SIGKILL');
  }
  results.push(await run('local headless Chromium, launched by the daemon', ['--headless'], site));
  server.close();
  rmSync(work, { recursive: true, force: true });

  console.log(`\n${N} sessions at once, ${ROUNDS} rounds each (load average ${(await import('node:os')).loadavg()[0].toFixed(1)}):\n`);
  console.log('| setup | start → first snapshot, median / max | snapshot | type | click | errors |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of results) {
    const a = (k: 'snapshot' | 'type' | 'click') => (r.actions[k].length ? `${fmt(median(r.actions[k]))} / ${fmt(max(r.actions[k]))}` : '–');
    const first = r.firstSnapshot.length ? `${fmt(median(r.firstSnapshot))} / ${fmt(max(r.firstSnapshot))}` : '–';
    console.log(`| ${r.setup} | ${first} | ${a('snapshot')} | ${a('type')} | ${a('click')} | ${r.errors.length ? r.errors.length + ': ' + r.errors[0].slice(0, 80) : 0} |`);
  }
  console.log('\n(actions: median / slowest)');
  if (poolFull) console.log(`\nA session beyond the pool of ${N}: ${poolFull}`);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
