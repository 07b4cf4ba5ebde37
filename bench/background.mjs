// npm run bench:background — actions in a background tab (another tab in front of it, in the same window) against
// the tab in front: two MCP servers (--no-daemon) attached to one Chromium, one working in the page in front
// (--attach-tab focused), the other in a tab it opens behind it (--attach-tab new); calls interleaved so load
// hits both alike; median and slowest of BENCH_N (default 20) snapshot, type, click and screenshot calls each.
// Headed on an Xvfb display when Xvfb is installed (a person's browser), else headless.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = process.env.BENCH_SERVER ?? join(root, 'dist', 'mcp.js');
const N = Number(process.env.BENCH_N ?? 20);

const page = `<!doctype html><title>Form</title><label>Name <input id=n></label><button onclick="document.getElementById('o').textContent='ok '+Date.now()">Send</button><p id=o></p>`;
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end(page);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;

const kill = [];
process.on('exit', () => kill.forEach((f) => f()));
process.on('unhandledRejection', (e) => { console.error(e); process.exit(1); });
let display;
if (spawnSync('sh', ['-c', 'command -v Xvfb']).status === 0) {
  const x = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x900x24', '-nolisten', 'tcp'], { detached: true, stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  kill.push(() => { try { process.kill(-x.pid, 'SIGKILL'); } catch {} });
  display = await new Promise((r) => x.stdio[3].once('data', (d) => r(`:${String(d).trim()}`)));
}
const profile = mkdtempSync(join(tmpdir(), 'ba-bench-bg-'));
const chrome = spawn(process.env.CHROME ?? '/usr/bin/chromium', [...(display ? [] : ['--headless']), '--no-sandbox', '--disable-gpu', '--no-first-run', '--no-default-browser-check', '--remote-debugging-port=0', `--user-data-dir=${profile}`, `${origin}/front`], { detached: true, stdio: 'ignore', env: { ...process.env, ...(display ? { DISPLAY: display } : {}) } });
kill.push(() => { try { process.kill(-chrome.pid, 'SIGKILL'); } catch {} rmSync(profile, { recursive: true, force: true }); });
let port;
for (let i = 0; i < 500 && !port; i++) {
  const f = join(profile, 'DevToolsActivePort');
  if (existsSync(f)) port = readFileSync(f, 'utf8').split('\n')[0];
  else await new Promise((r) => setTimeout(r, 20));
}
await new Promise((r) => setTimeout(r, 1000));

async function connect(attachTab) {
  const client = new Client({ name: `bench-${attachTab}`, version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER, '--cdp-url', `http://127.0.0.1:${port}`, '--attach-tab', attachTab, '--no-daemon', '--audit-dir', 'off', '--allow-confirm-actions'], stderr: 'ignore' }));
  return client;
}
const text = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
async function timed(client, name, args = {}) {
  const t0 = performance.now();
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  if (r.isError) throw new Error(`${name}: ${text(r)}`);
  return { ms: performance.now() - t0, text: text(r) };
}
const front = await connect('focused');
const back = await connect('new');
const refs = {};
for (const [who, c] of [['front', front], ['back', back]]) {
  await timed(c, 'browser_navigate', { url: `${origin}/${who}` });
  const snap = (await timed(c, 'browser_snapshot')).text;
  refs[who] = { field: /\[(\d+)\] textbox "Name"/.exec(snap)[1], button: /\[(\d+)\] button "Send"/.exec(snap)[1] };
}
const samples = { front: {}, back: {} };
const add = (who, k, ms) => (samples[who][k] ??= []).push(ms);
for (let i = 0; i < N; i++) {
  for (const [who, c] of i % 2 ? [['front', front], ['back', back]] : [['back', back], ['front', front]]) {
    add(who, 'snapshot', (await timed(c, 'browser_snapshot')).ms);
    add(who, 'type', (await timed(c, 'browser_type', { ref: refs[who].field, text: `sample ${i}` })).ms);
    add(who, 'click', (await timed(c, 'browser_click', { ref: refs[who].button })).ms);
    add(who, 'screenshot', (await timed(c, 'browser_screenshot')).ms);
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const f = (a) => `${median(a).toFixed(0)} ms / ${Math.max(...a).toFixed(0)} ms`;
console.log(`\n${display ? 'Headed (Xvfb)' : 'Headless'} Chromium, ${N} calls each, load average ${(await import('node:os')).loadavg()[0].toFixed(1)} (median / slowest):\n`);
console.log('| call | tab in front | background tab | ratio of medians |');
console.log('|---|---:|---:|---:|');
for (const k of ['snapshot', 'type', 'click', 'screenshot']) console.log(`| ${k} | ${f(samples.front[k])} | ${f(samples.back[k])} | ${(median(samples.back[k]) / median(samples.front[k])).toFixed(2)} |`);
await front.close();
await back.close();
server.close();
process.exit(0);
