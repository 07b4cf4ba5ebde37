// npm run bench:concurrency — 20 calls sent at once to one MCP server (snapshot, screenshot, find on
// one tab), and two servers attached to one browser clicking at the same time: median and max time
// per call, errors. BENCH_SERVER=/path/to/mcp.js measures another build (e.g. an older checkout).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = process.env.BENCH_SERVER ?? join(root, 'dist', 'mcp.js');
const ROUNDS = Number(process.env.BENCH_N ?? 3);

const big = `<!doctype html><title>Big</title>${Array.from({ length: 300 }, (_, i) => `<p>Paragraph ${i} with some words</p><a href="#${i}">Link ${i}</a><button>Button ${i}</button>`).join('')}`;
const counter = `<!doctype html><title>Counter</title><button id=b>Count</button><p id=n>0</p><script>let count = 0; document.getElementById("b").onclick = () => { document.getElementById("n").textContent = String(++count); };</script>`;
const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end(req.url.startsWith('/big') ? big : counter);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;

const profile = mkdtempSync(join(tmpdir(), 'ba-bench-conc-'));
const chrome = spawn(process.env.CHROME ?? '/usr/bin/chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], { detached: true, stdio: 'ignore' });
const killChrome = () => { try { process.kill(-chrome.pid, 'SIGKILL'); } catch {} };
process.on('exit', () => { killChrome(); try { rmSync(profile, { recursive: true, force: true }); } catch {} });
process.on('unhandledRejection', (e) => { console.error(e); process.exit(1); });
let port;
for (let i = 0; i < 500 && !port; i++) {
  const f = join(profile, 'DevToolsActivePort');
  if (existsSync(f)) port = readFileSync(f, 'utf8').split('\n')[0];
  else await new Promise((r) => setTimeout(r, 20));
}
const cdp = `http://127.0.0.1:${port}`;

async function connect() {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER, '--cdp-url', cdp, '--audit-dir', 'off', '--allow-confirm-actions'], stderr: 'ignore' }));
  return client;
}
const text = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
async function timed(client, name, args) {
  const t0 = performance.now();
  try {
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    return { ms: performance.now() - t0, error: r.isError ? text(r).split('\n')[0] : undefined };
  } catch (e) {
    return { ms: performance.now() - t0, error: String(e.message ?? e) };
  }
}
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: Math.round(s[Math.floor(s.length / 2)]), max: Math.round(s[s.length - 1]) };
};

// 1. Twenty read-only calls at once on one server.
const one = await connect();
await timed(one, 'browser_navigate', { url: `${origin}/big` });
const times = [];
const errors = [];
let wall = 0;
for (let round = 0; round < ROUNDS; round++) {
  const t0 = performance.now();
  const done = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 3 === 0 ? timed(one, 'browser_snapshot', {}) : i % 3 === 1 ? timed(one, 'browser_screenshot', {}) : timed(one, 'browser_find', { query: `Button ${i}` }))));
  wall += performance.now() - t0;
  for (const d of done) (d.error ? errors.push(d.error) : times.push(d.ms));
}
const a = stats(times);
console.log(`20 concurrent calls on one server (${ROUNDS} rounds): median ${a.median} ms, max ${a.max} ms, all 20 answered in ${Math.round(wall / ROUNDS)} ms per round, ${errors.length} errors${errors.length ? `: ${[...new Set(errors)].slice(0, 3).join(' | ')}` : ''}`);
await one.close();

// 2. Two servers on the same browser, clicking at the same moment.
const [x, y] = await Promise.all([connect(), connect()]);
await Promise.all([timed(x, 'browser_navigate', { url: `${origin}/c?x` }), timed(y, 'browser_navigate', { url: `${origin}/c?y` })]);
const refOf = async (c) => /\[(\d+)\] button "Count"/.exec(text(await c.callTool({ name: 'browser_snapshot', arguments: {} })))?.[1] ?? '1';
const [rx, ry] = await Promise.all([refOf(x), refOf(y)]);
const clicks = [];
const clickErrors = [];
for (let round = 0; round < 4 * ROUNDS; round++) {
  const done = await Promise.all([timed(x, 'browser_click', { ref: rx }), timed(y, 'browser_click', { ref: ry })]);
  for (const d of done) (d.error ? clickErrors.push(d.error) : clicks.push(d.ms));
}
const shots = await Promise.all([timed(x, 'browser_screenshot', {}), timed(y, 'browser_screenshot', {})]);
console.log(`two servers, simultaneous screenshots: ${shots.map((d) => `${Math.round(d.ms)} ms${d.error ? ` (${d.error.slice(0, 100)})` : ''}`).join(' / ')}`);
const counts = await Promise.all([x, y].map(async (c) => text(await c.callTool({ name: 'browser_evaluate', arguments: { script: 'document.getElementById("n").textContent' } }))));
const b = stats(clicks.length ? clicks : [0]);
console.log(`two servers, simultaneous clicks (${4 * ROUNDS} rounds): median ${b.median} ms, max ${b.max} ms, ${clickErrors.length} errors${clickErrors.length ? `: ${[...new Set(clickErrors)].slice(0, 2).join(' | ')}` : ''}; counts ${counts.map((t) => /"(\d+)"/.exec(t)?.[1] ?? t.slice(0, 80)).join(' / ')} (expected ${4 * ROUNDS} each)`);
await Promise.all([x.close(), y.close()]);
server.close();
process.exit(0);
