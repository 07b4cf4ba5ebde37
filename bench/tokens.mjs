// npm run bench:tokens — tokens a model reads per solved task (o200k), ours against Playwright MCP and
// chrome-devtools-mcp: the same small tasks on a local site (bench/tokens/pages.mjs), solved by the same
// scripted agent (bench/tokens/agent.mjs) through each real MCP server over stdio, each server launching the
// machine's Chromium, a fresh session per task. Prints tokens and calls per task side by side, and ours
// against the leanest peer's per task.
//   BENCH_SERVERS=ours,playwright-mcp   only these servers
//   BENCH_DUMP=<folder>                 write every call and result, one file per server and task
//   BENCH_JSON=<file>                   write the figures as JSON
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { serveSite } from './tokens/pages.mjs';
import { Agent } from './tokens/agent.mjs';
import { TASKS } from './tokens/tasks.mjs';
import { SERVERS } from './tokens/servers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const only = process.env.BENCH_SERVERS?.split(',');
const servers = Object.values(SERVERS).map((s) => s(root)).filter((s) => !only || only.includes(s.name));
const dump = process.env.BENCH_DUMP;
if (dump) mkdirSync(dump, { recursive: true });

const site = await serveSite();
// Playwright MCP writes files (snapshots, console logs) under its working folder.
const work = mkdtempSync(join(tmpdir(), 'ba-bench-tokens-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

async function connect(server) {
  const client = new Client({ name: 'bench-tokens', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: server.args, stderr: 'ignore', cwd: work }));
  return client;
}

/** Tokens of the tool list a client loads (names, descriptions, schemas), once per session. */
async function toolListTokens(server) {
  const client = await connect(server);
  try {
    return countTokens(JSON.stringify((await client.listTools()).tools));
  } finally {
    await client.close();
  }
}

const results = {};
for (const server of servers) {
  results[server.name] = { tools: await toolListTokens(server).catch(() => undefined), tasks: {} };
  for (const [task, run] of Object.entries(TASKS)) {
    const log = [];
    const client = await connect(server);
    const agent = new Agent(server, client, site.origin, (s) => log.push(s));
    let error;
    try {
      await run(agent);
    } catch (e) {
      error = e.message;
    } finally {
      await client.close();
    }
    results[server.name].tasks[task] = { calls: agent.calls, tokens: agent.tokens, error };
    if (dump) writeFileSync(join(dump, `${server.name}--${task.replace(/\W+/g, '-')}.txt`), log.join('\n'));
    console.error(`${server.name} / ${task}: ${error ? `FAILED (${error})` : `${agent.calls} calls, ${agent.tokens} tokens`}`);
  }
}
await site.close();

// The table: tokens (calls) per server and task; ours over the leanest peer that solved the task.
const names = servers.map((s) => s.name);
const peers = names.filter((n) => n !== 'ours');
const cell = (r) => (r.error ? 'failed' : `${r.tokens} (${r.calls})`);
const ratios = [];
console.log(`\nTokens a model reads per task, o200k (calls); a fresh session per task\n`);
console.log(['task'.padEnd(18), ...names.map((n) => n.padStart(20)), peers.length ? 'ours / leanest'.padStart(15) : ''].join(' '));
for (const task of Object.keys(TASKS)) {
  const row = names.map((n) => results[n].tasks[task]);
  const ours = results.ours?.tasks[task];
  const solved = peers.map((n) => results[n].tasks[task]).filter((r) => !r.error);
  const leanest = solved.length ? Math.min(...solved.map((r) => r.tokens)) : undefined;
  const ratio = ours && !ours.error && leanest ? ours.tokens / leanest : undefined;
  if (ratio !== undefined) ratios.push(ratio);
  console.log([task.padEnd(18), ...row.map((r) => cell(r).padStart(20)), ratio === undefined ? '' : `${ratio.toFixed(2)}×`.padStart(15)].join(' '));
}
const total = (n) => Object.values(results[n].tasks).reduce((a, r) => a + r.tokens, 0);
console.log(['total'.padEnd(18), ...names.map((n) => String(total(n)).padStart(20))].join(' '));
console.log(['tool list (once)'.padEnd(18), ...names.map((n) => String(results[n].tools ?? '-').padStart(20))].join(' '));
if (ratios.length) {
  const sorted = [...ratios].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  console.log(`\nours / leanest peer per task: median ${median.toFixed(2)}×, highest ${sorted.at(-1).toFixed(2)}× (target: median ≤ 0.75×, none above 1.0×)`);
}
if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify(results, null, 2));
const failed = names.flatMap((n) => Object.entries(results[n].tasks).filter(([, r]) => r.error).map(([t]) => `${n}/${t}`));
if (failed.some((f) => f.startsWith('ours/'))) process.exitCode = 1;
