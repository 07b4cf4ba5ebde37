// npm run bench:actions — median round trip (action + settle) of navigate / click / type, ours vs
// Playwright MCP, both driven through a real MCP client over stdio and attached to the same Chromium.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.env.BENCH_N ?? 15);

const pages = {
  '/static': '<!doctype html><title>Static</title><button id=b style="position:absolute;left:20px;top:20px;width:120px;height:40px" onclick="this.textContent = String(++window.n || (window.n = 1))">Go</button><input id=i style="position:absolute;left:20px;top:100px" autofocus>',
  '/dynamic': '<!doctype html><title>Dynamic</title><button id=b style="position:absolute;left:20px;top:20px;width:120px;height:40px" onclick="fetch(\'/api\').then(r => r.text()).then(t => out.textContent = t + (++window.n || (window.n = 1)))">Load</button><div id=out style="position:absolute;top:80px"></div>',
};
const server = createServer((req, res) => {
  if (req.url.startsWith('/api')) return setTimeout(() => res.end('data '), 300);
  const html = pages[req.url.split('?')[0]];
  res.writeHead(html ? 200 : 404, { 'content-type': 'text/html' });
  res.end(html ?? 'not found');
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;

// One Chromium for both servers.
const profile = mkdtempSync(join(tmpdir(), 'ba-bench-'));
const chrome = spawn(process.env.CHROME ?? '/usr/bin/chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], { detached: true, stdio: 'ignore' });
// Never leave the browser behind, whatever happens below.
const killChrome = () => { try { process.kill(-chrome.pid, 'SIGKILL'); } catch {} };
process.on('exit', () => { killChrome(); try { rmSync(profile, { recursive: true, force: true }); } catch {} });
process.on('uncaughtException', (e) => { console.error(e); process.exit(1); });
process.on('unhandledRejection', (e) => { console.error(e); process.exit(1); });
let port;
for (let i = 0; i < 500 && !port; i++) {
  const f = join(profile, 'DevToolsActivePort');
  if (existsSync(f)) port = readFileSync(f, 'utf8').split('\n')[0];
  else await new Promise((r) => setTimeout(r, 20));
}
const cdp = `http://127.0.0.1:${port}`;

async function connect(args) {
  const client = new Client({ name: 'bench', version: '1' });
  // cwd: Playwright MCP writes its snapshot files there.
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore', cwd: profile }));
  return client;
}
const text = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
async function call(client, name, args) {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
  if (r.isError) throw new Error(`${name}: ${text(r)}`);
  return text(r);
}
async function timed(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

const ours = {
  name: 'browser-agent',
  client: await connect([join(root, 'dist', 'mcp.js'), '--cdp-url', cdp, '--no-daemon', '--allow-confirm-actions']),
  refs: {},
  async navigate(path) {
    await call(this.client, 'browser_navigate', { url: origin + path });
    // With the snapshot layer, act by ref like a model would; without it, by x/y.
    const snap = await this.client.callTool({ name: 'browser_snapshot', arguments: {} });
    const t = text(snap);
    this.refs = snap.isError ? {} : { button: /\[([^\]]+)\] button/.exec(t)?.[1], input: /\[([^\]]+)\] textbox/.exec(t)?.[1] };
  },
  async click() { await call(this.client, 'browser_click', this.refs.button ? { ref: this.refs.button } : { x: 80, y: 40 }); },
  async type(t) { await call(this.client, 'browser_type', this.refs.input ? { ref: this.refs.input, text: t } : { text: t, clear: true }); },
  async read(expr) { return call(this.client, 'browser_evaluate', { script: expr }); },
};
const pw = {
  name: 'playwright-mcp',
  client: await connect([join(root, 'node_modules', '@playwright', 'mcp', 'cli.js'), '--cdp-endpoint', cdp]),
  async navigate(path) {
    await call(this.client, 'browser_navigate', { url: origin + path });
  },
  async click() { await call(this.client, 'browser_click', { element: 'button', target: '#b' }); },
  async type(t) { await call(this.client, 'browser_type', { element: 'input', target: '#i', text: t }); },
  async read(expr) { return call(this.client, 'browser_evaluate', { function: `() => ${expr}` }); },
};

const results = {};
for (const impl of [ours, pw]) {
  const r = (results[impl.name] = {});
  await impl.navigate('/static');
  const navs = [];
  for (let i = 0; i < N; i++) navs.push(await timed(() => call(impl.client, 'browser_navigate', { url: origin + '/static' })));
  r['navigate (static)'] = median(navs);
  await impl.navigate('/static'); // fresh refs for the page we act on
  const clicks = [];
  for (let i = 0; i < N; i++) clicks.push(await timed(() => impl.click()));
  r['click (static)'] = median(clicks);
  const types = [];
  for (let i = 0; i < N; i++) types.push(await timed(() => impl.type(`hello ${i}`)));
  r['type (static)'] = median(types);
  await impl.navigate('/dynamic');
  const dyn = [];
  let settledEvery = true;
  for (let i = 0; i < N; i++) {
    dyn.push(await timed(() => impl.click()));
    // The click must not have returned before the XHR it started finished and updated the DOM.
    const out = await impl.read(`document.getElementById('out').textContent`);
    if (!out.includes(`data ${i + 1}`)) settledEvery = false;
  }
  r['click + 300 ms XHR'] = median(dyn);
  r.settled = settledEvery;
}

console.log(`\nMedian round trip over ${N} runs (ms), MCP over stdio, same Chromium:\n`);
const rows = Object.keys(results[ours.name]).filter((k) => k !== 'settled');
console.log(['action'.padEnd(22), 'ours'.padStart(8), 'playwright'.padStart(11), 'ratio'.padStart(7)].join(' '));
for (const k of rows) {
  const a = results[ours.name][k];
  const b = results[pw.name][k];
  console.log([k.padEnd(22), a.toFixed(0).padStart(8), b.toFixed(0).padStart(11), (a / b).toFixed(2).padStart(7)].join(' '));
}
console.log(`\nOurs acted ${ours.refs.button ? 'by snapshot ref' : 'by x/y (no snapshot layer in this build)'}; Playwright MCP by CSS selector.`);
console.log(`\nReturned only after the XHR had updated the page: ours ${results[ours.name].settled}, playwright ${results[pw.name].settled}`);

await ours.client.close();
await pw.client.close();
server.closeAllConnections?.();
server.close();
try { process.kill(-chrome.pid, 'SIGKILL'); } catch {}
await new Promise((r) => setTimeout(r, 300));
rmSync(profile, { recursive: true, force: true });
