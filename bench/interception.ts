// npm run bench:interception — the cost of enforcing origins at the request (issue 13): median
// browser_navigate and browser_click round trips through the real MCP server, without origin rules,
// with a block list and with an allow list. The shared corpus of real pages when it is there, else
// the in-repository fixture pages.
//
// The machine is shared, so the measurement is built to survive load changes: four MCP servers (each
// with its own browser) take turns sample by sample, the order rotating; each configuration is
// compared with "no rules" on the same page in the same turn (paired ratio), and the median of those
// ratios is given with a bootstrap 95% interval. A second "no rules" server ("no rules again") is the
// control: its interval is the noise of this run. BENCH_ROUNDS (default 2) passes over the pages,
// BENCH_LIMIT pages (default all), BENCH_N clicks per server (default 30). BENCH_COMPARE=<another build's
// dist/mcp.js> adds its block-list and allow-list servers to the same turns (before/after a change).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { TEST_LAUNCH } from '../test/helpers/chromium';
import { findCorpus } from '../test/helpers/corpus';
import { FIXTURE_PAGES_DIR, pageRoutes } from '../test/helpers/pages';
import { startServer } from '../test/helpers/servers';

const ROOT = join(__dirname, '../..');
const LIMIT = Number(process.env.BENCH_LIMIT || 0);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 2);
const CLICKS = Number(process.env.BENCH_N || 30);
/** Rules that match nothing the pages load: the price is the interception itself, not a refusal. */
const BLOCK_LIST = '*.tracker.invalid,127.0.0.2,ads.example';

interface Mcp {
  name: string;
  client: Client;
}

async function start(name: string, extra: string[], bin = join(ROOT, 'dist/mcp.js')): Promise<Mcp> {
  const client = new Client({ name: 'bench-interception', version: '1' });
  const args = [bin, '--no-daemon', '--audit-dir', 'off', '--headless', ...TEST_LAUNCH.args!.map((a) => `--browser-arg=${a}`), ...extra];
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
  return { name, client };
}

async function call(m: Mcp, name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> {
  const r: any = await m.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  return { text: r.content.filter((c: any) => c.type === 'text').map((c: any) => c.text).join('\n'), isError: !!r.isError };
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const median = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** A seeded generator, so two runs resample alike. */
function rng(seed: number): () => number {
  return () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

/** Median of the paired ratios and its bootstrap 95% interval (percentile method, 2000 resamples). */
function pairedCost(ratios: number[]): { mid: number; lo: number; hi: number } {
  const rand = rng(42);
  const meds: number[] = [];
  for (let i = 0; i < 2000; i++) meds.push(median(ratios.map(() => ratios[Math.floor(rand() * ratios.length)])));
  meds.sort((a, b) => a - b);
  return { mid: median(ratios) - 1, lo: meds[Math.floor(meds.length * 0.025)] - 1, hi: meds[Math.floor(meds.length * 0.975)] - 1 };
}

/** Rotation `i` of the list: who goes first changes every turn. */
const turn = <T>(all: T[], i: number): T[] => [...all.slice(i % all.length), ...all.slice(0, i % all.length)];

async function main() {
  const found = findCorpus();
  const dir = found.corpus?.dir ?? FIXTURE_PAGES_DIR;
  if (!found.corpus) console.log(`Corpus: ${found.reason}; measuring the in-repository fixture pages (${FIXTURE_PAGES_DIR}) instead.`);
  const pages = (found.corpus?.pages ?? readdirSync(dir).filter((f) => f.endsWith('.html')).sort()).slice(0, LIMIT || undefined);
  const routes: Record<string, string | ((req: any, res: any) => void)> = pageRoutes(dir, pages);
  routes['/click'] = '<!doctype html><title>Click</title><button onclick="fetch(\'/api\').then(r => r.text()).then(t => out.textContent = t + (++window.n || (window.n = 1)))">Load</button><div id=out></div>';
  routes['/api'] = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('data ');
  };
  const srv = await startServer(routes);
  const all = [
    await start('no rules', []),
    await start('no rules again', []),
    await start('block list', ['--blocked-origins', BLOCK_LIST]),
    await start('allow list', ['--allowed-origins', `127.0.0.1:${srv.port}`]),
  ];
  const other = process.env.BENCH_COMPARE;
  if (other) {
    all.push(await start('block list (compare)', ['--blocked-origins', BLOCK_LIST], other), await start('allow list (compare)', ['--allowed-origins', `127.0.0.1:${srv.port}`], other));
  }
  const base = all[0];
  /** Per server, per sample key (page and round, or click number): ms. */
  const nav = new Map(all.map((m) => [m.name, new Map<string, number>()]));
  const click = new Map(all.map((m) => [m.name, new Map<string, number>()]));
  let errors = 0;
  const started = performance.now();
  try {
    for (const m of all) await call(m, 'browser_navigate', { url: `${srv.origin}/click` }); // browsers warm
    let k = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const page of pages) {
        for (const m of turn(all, k++)) {
          await call(m, 'browser_navigate', { url: 'about:blank' });
          let r!: { text: string; isError: boolean };
          const ms = await timed(async () => (r = await call(m, 'browser_navigate', { url: `${srv.origin}/${page}` })));
          if (/dialog/i.test(r.text)) await call(m, 'browser_handle_dialog', { accept: true }).catch(() => undefined);
          if (r.isError) errors++;
          else nav.get(m.name)!.set(`${round}/${page}`, ms);
        }
      }
    }
    const refs = new Map<string, string>();
    for (const m of all) {
      await call(m, 'browser_navigate', { url: `${srv.origin}/click` });
      const ref = /\[([^\]]+)\] button "Load"/.exec((await call(m, 'browser_snapshot')).text)?.[1];
      if (!ref) throw new Error(`${m.name}: no button in the snapshot`);
      refs.set(m.name, ref);
    }
    for (let i = 0; i < CLICKS; i++) {
      for (const m of turn(all, i)) click.get(m.name)!.set(String(i), await timed(() => call(m, 'browser_click', { ref: refs.get(m.name)! })));
    }
  } finally {
    for (const m of all) await m.client.close().catch(() => undefined);
    await srv.close();
  }

  const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
  const cell = (table: typeof nav, of: Mcp) => {
    const mine = table.get(of.name)!;
    const ms = `${median([...mine.values()]).toFixed(0)} ms`;
    if (of === base) return ms.padStart(24);
    const baseline = table.get(base.name)!;
    const c = pairedCost([...mine].filter(([key]) => baseline.has(key)).map(([key, t]) => t / baseline.get(key)!));
    return `${ms} ${pct(c.mid)} [${pct(c.lo)}, ${pct(c.hi)}]`.padStart(30);
  };
  const header = ['action'.padEnd(26), ...all.map((m) => m.name.padStart(m === base ? 24 : 30))].join(' ');
  console.log(`\nCost of request interception through the MCP server: median round trip, and per configuration the median`);
  console.log(`of its time over "no rules" on the same sample with a bootstrap 95% interval. ${found.corpus ? `Corpus ${dir}` : 'Fixture pages'},`);
  console.log(`${pages.length} pages × ${ROUNDS} rounds, servers taking turns; ${((performance.now() - started) / 60000).toFixed(1)} min${errors ? `, ${errors} navigation errors left out` : ''}.\n`);
  console.log(header);
  console.log([`navigate (${nav.get(base.name)!.size} samples)`.padEnd(26), ...all.map((m) => cell(nav, m))].join(' '));
  console.log([`click + fetch (${CLICKS} clicks)`.padEnd(26), ...all.map((m) => cell(click, m))].join(' '));
  console.log(`\n"no rules again" is the same configuration as "no rules": its interval is this run's noise. Block list:`);
  console.log(`${BLOCK_LIST} (matches nothing the pages load). Allow list: the pages' own origin (their requests to other hosts`);
  console.log(`are refused). Target: < 10% slower.${other ? ` "(compare)": the same lists served by ${other}.` : ''}`);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
