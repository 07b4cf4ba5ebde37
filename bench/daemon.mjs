// npm run bench:daemon — what the session daemon's extra hop costs: median round trip of
// browser_snapshot and browser_click through the daemon vs in-process (--no-daemon), both driven by a
// real MCP client over stdio and attached to the same Chromium, on the same pages, calls interleaved
// (in-process, daemon, in-process, …) so load on the machine hits both alike; each works in a tab of its
// own in a window of its own (--attach-tab new), so both drive the same kind of tab. Also the bare CDP round
// trip (Runtime.evaluate "1") direct vs through the daemon: the per-message cost of the hop.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.env.BENCH_N ?? 30);

const rows = Array.from({ length: 40 }, (_, i) => `<tr><td>Item ${i}</td><td><a href="#i${i}">details</a></td><td><input aria-label="qty ${i}" value=${i}></td></tr>`).join('');
const pages = {
  '/static': '<!doctype html><title>Static</title><button id=b style="position:absolute;left:20px;top:20px;width:120px;height:40px" onclick="this.textContent = String(++window.n || (window.n = 1))">Go</button><input id=i style="position:absolute;left:20px;top:100px">',
  '/table': `<!doctype html><title>Table</title><h1>Orders</h1><button onclick="this.textContent = String(++window.n || (window.n = 1))">Refresh</button><table>${rows}</table>`,
};
const server = createServer((req, res) => {
  const html = pages[req.url.split('?')[0]];
  res.writeHead(html ? 200 : 404, { 'content-type': 'text/html' });
  res.end(html ?? 'not found');
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;

const profile = mkdtempSync(join(tmpdir(), 'ba-bench-'));
const daemonDir = mkdtempSync(join(tmpdir(), 'ba-benchd-'));
const chrome = spawn(process.env.CHROME ?? '/usr/bin/chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], { detached: true, stdio: 'ignore' });
const killChrome = () => { try { process.kill(-chrome.pid, 'SIGKILL'); } catch {} };
process.on('exit', () => { killChrome(); try { rmSync(profile, { recursive: true, force: true }); } catch {} });
process.on('uncaughtException', (e) => { console.error(e); process.exit(1); });
process.on('unhandledRejection', (e) => { console.error(e); process.exit(1); });
let port;
for (let i = 0; i < 3000 && !port; i++) { // up to 60 s on a loaded machine
  const f = join(profile, 'DevToolsActivePort');
  if (existsSync(f)) port = readFileSync(f, 'utf8').split('\n')[0];
  else await new Promise((r) => setTimeout(r, 20));
}
if (!port) throw new Error('Chromium did not write DevToolsActivePort within 60 s');
const cdp = `http://127.0.0.1:${port}`;
const env = { ...process.env, BROWSER_AGENT_DAEMON_DIR: daemonDir, BROWSER_AGENT_DAEMON_IDLE_MS: '2000' };

async function connect(args) {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(root, 'dist', 'mcp.js'), '--cdp-url', cdp, '--audit-dir', 'off', '--attach-tab', 'new', ...args], stderr: 'ignore', env }));
  return client;
}
const text = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
async function call(client, name, args) {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
  if (r.isError) throw new Error(`${name}: ${text(r)}`);
  return text(r);
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

const impls = [
  { name: 'in-process', client: await connect(['--no-daemon']) },
  { name: 'daemon', client: await connect([]) },
];
const results = {};
for (const path of ['/static', '/table']) {
  for (const impl of impls) {
    await call(impl.client, 'browser_navigate', { url: origin + path });
    impl.ref = /\[([^\]]+)\] button/.exec(await call(impl.client, 'browser_snapshot', {}))[1];
    for (let i = 0; i < 3; i++) await call(impl.client, 'browser_click', { ref: impl.ref }); // warm up
  }
  for (const [label, run] of [
    [`browser_snapshot ${path}`, (impl) => call(impl.client, 'browser_snapshot', {})],
    [`browser_click ${path}`, (impl) => call(impl.client, 'browser_click', { ref: impl.ref })],
  ]) {
    const times = Object.fromEntries(impls.map((i) => [i.name, []]));
    for (let n = 0; n < N; n++) {
      // Alternate which goes first, so neither always runs right after the other.
      for (const impl of n % 2 ? [...impls].reverse() : impls) {
        const t0 = performance.now();
        await run(impl);
        times[impl.name].push(performance.now() - t0);
      }
    }
    results[label] = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  }
}

// The bare hop: one CDP call, direct WebSocket vs through the daemon.
const { CdpConnection } = await import(join(root, 'out', 'bench', 'hop.js'));
const hop = await CdpConnection.measure(cdp, daemonDir, N * 10);

console.log(`\nMedian round trip over ${N} interleaved runs (ms), MCP over stdio, same Chromium:\n`);
console.log(['call'.padEnd(26), 'in-process'.padStart(11), 'daemon'.padStart(8), 'ratio'.padStart(7)].join(' '));
for (const [k, v] of Object.entries(results)) console.log([k.padEnd(26), v['in-process'].toFixed(1).padStart(11), v.daemon.toFixed(1).padStart(8), (v.daemon / v['in-process']).toFixed(2).padStart(7)].join(' '));
console.log(`\nOne CDP call (Runtime.evaluate "1"), median over ${N * 10}: on the client's own WebSocket (in-process and the daemon's default direct transport) ${hop.direct.toFixed(3)} ms; through the daemon's proxy transport ${hop.daemon.toFixed(3)} ms (+${(hop.daemon - hop.direct).toFixed(3)} ms per call)`);

for (const impl of impls) await impl.client.close();
server.closeAllConnections?.();
server.close();
await new Promise((r) => setTimeout(r, 3000)); // the daemon exits when idle
killChrome();
rmSync(profile, { recursive: true, force: true });
