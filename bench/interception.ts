// npm run bench:interception — the cost of enforcing origins at the request (issue 13): median
// browser_navigate and browser_click round trips through the real MCP server, without origin rules
// (requests are not paused at all), with a block list (only requests whose URL holds a blocked host are
// paused) and with an allow list (every request of every target is paused by Fetch and checked). The
// shared corpus of real pages when it is there, else the in-repository fixture pages.
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
const CLICKS = Number(process.env.BENCH_N || 15);
/** Rules that match nothing the pages load: the price is the pause and the check, not a refusal. */
const BLOCK_LIST = '*.tracker.invalid,127.0.0.2,ads.example';

interface Mcp {
  name: string;
  client: Client;
}

async function start(name: string, extra: string[]): Promise<Mcp> {
  const client = new Client({ name: 'bench-interception', version: '1' });
  const args = [join(ROOT, 'dist/mcp.js'), '--no-daemon', '--audit-dir', 'off', '--headless', ...TEST_LAUNCH.args!.map((a) => `--browser-arg=${a}`), ...extra];
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

const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

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
  const plain = await start('no rules', []);
  const guarded = await start('block list', ['--blocked-origins', BLOCK_LIST]);
  const allowing = await start('allow list', ['--allowed-origins', `127.0.0.1:${srv.port}`]);
  const all = [plain, guarded, allowing];
  const nav: Record<string, number[]> = Object.fromEntries(all.map((m) => [m.name, []]));
  const click: Record<string, number[]> = Object.fromEntries(all.map((m) => [m.name, []]));
  let errors = 0;
  try {
    for (const m of all) await call(m, 'browser_navigate', { url: `${srv.origin}/click` }); // browsers warm
    // Taking turns page by page (and who goes first), so a change in machine load falls on all alike.
    for (const [i, page] of pages.entries()) {
      for (const m of [...all.slice(i % all.length), ...all.slice(0, i % all.length)]) {
        await call(m, 'browser_navigate', { url: 'about:blank' });
        let r!: { text: string; isError: boolean };
        const ms = await timed(async () => (r = await call(m, 'browser_navigate', { url: `${srv.origin}/${page}` })));
        if (/dialog/i.test(r.text)) await call(m, 'browser_handle_dialog', { accept: true }).catch(() => undefined);
        if (r.isError) errors++;
        else nav[m.name].push(ms);
      }
    }
    for (const m of all) {
      await call(m, 'browser_navigate', { url: `${srv.origin}/click` });
      const ref = /\[([^\]]+)\] button "Load"/.exec((await call(m, 'browser_snapshot')).text)?.[1];
      if (!ref) throw new Error(`${m.name}: no button in the snapshot`);
      for (let i = 0; i < CLICKS; i++) click[m.name].push(await timed(() => call(m, 'browser_click', { ref })));
    }
  } finally {
    for (const m of all) await m.client.close().catch(() => undefined);
    await srv.close();
  }
  const pct = (a: number[], b: number[]) => `${((median(b) / median(a) - 1) * 100).toFixed(1)}%`;
  const row = (what: string, r: Record<string, number[]>) => {
    const [a, b, c] = all.map((m) => r[m.name]);
    console.log([what.padEnd(28), median(a).toFixed(0).padStart(8), median(b).toFixed(0).padStart(11), pct(a, b).padStart(7), median(c).toFixed(0).padStart(11), pct(a, c).padStart(7)].join(' '));
  };
  console.log(`\nCost of request interception: median round trip (ms) through the MCP server, ${found.corpus ? `corpus ${dir}` : 'fixture pages'}${errors ? `, ${errors} navigation errors left out` : ''}\n`);
  console.log(['action'.padEnd(28), 'no rules'.padStart(8), 'block list'.padStart(11), 'slower'.padStart(7), 'allow list'.padStart(11), 'slower'.padStart(7)].join(' '));
  row(`navigate (${nav[plain.name].length} pages)`, nav);
  row(`click + fetch (${CLICKS} clicks)`, click);
  console.log(`\nBlock list: ${BLOCK_LIST} (matches nothing the pages load: no request is paused). Allow list: the pages' own origin (every request is paused and checked; the pages' requests to other hosts are refused). Target: < 10% slower.`);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
