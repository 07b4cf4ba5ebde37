// npm run bench:script — code mode against call by call: four multi-page tasks on a local site
// (bench/script/pages.mjs), each done (1) call by call through our MCP server by the scripted agent of
// bench:tokens, (2) as one browser_run_script call to our server, (3) as one browser_run_code_unsafe call to
// Playwright MCP 0.0.83 (a core tool there, no capability flag). Counts the tool calls a model makes and the o200k
// tokens of the results it reads (as bench:tokens does), plus the tokens of the code it writes; checks each
// task's answer against the site's ground truth. A fresh server and browser per task and mode.
//   BENCH_DUMP=<folder>   write every call and result
//   BENCH_JSON=<file>     write the figures as JSON
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { Agent } from './tokens/agent.mjs';
import { SERVERS } from './tokens/servers.mjs';
import { serveSite, ORDERS, TICKETS, PRODUCTS, QUERIES } from './script/pages.mjs';
import { CALL_BY_CALL, OUR_SCRIPTS, PLAYWRIGHT_CODE } from './script/tasks.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dump = process.env.BENCH_DUMP;
if (dump) mkdirSync(dump, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'ba-bench-script-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

const ours = SERVERS.ours(root);
ours.calls.back = () => ['browser_navigate_back', {}];
const playwright = SERVERS['playwright-mcp'](root);

async function connect(server) {
  const client = new Client({ name: 'bench-script', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: server.args, stderr: 'ignore', cwd: work }));
  return client;
}

const site = await serveSite();

/** Is the answer right? Each task's ground truth, from the site itself. */
const CHECK = {
  pagination: (v) => JSON.stringify(v) === JSON.stringify(ORDERS.map((o) => [o.id, o.customer, o.total])),
  'pagination, one customer': (v) => JSON.stringify(v) === JSON.stringify(ORDERS.filter((o) => o.customer === 'Grace').map((o) => [o.id, o.customer, o.total])),
  'bulk form': (v) => Number(v) === 30 && site.surveys.length > 0 && Array.from({ length: 30 }, (_, i) => site.surveys.at(-1)[`q${i + 1}`] === `answer ${i + 1}`).every(Boolean),
  'table across pages': (v) => TICKETS.every((t) => v?.[t.id] === t.status) && Object.keys(v).length === TICKETS.length,
  'search and collect': (v) => QUERIES.every((q) => { const p = PRODUCTS.find((x) => x.name.toLowerCase().includes(q)); return v?.[q]?.[0] === p.name && v[q][1] === p.price; }),
};

/** One call of a code tool; the value it returned, parsed from its result. */
async function codeCall(server, tool, args, parse, log) {
  const client = await connect(server);
  const t0 = Date.now();
  try {
    const r = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 300_000 });
    const text = r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
    log(`>>> ${tool}${r.isError ? ' (error)' : ''} — ${countTokens(text)} tokens\n${JSON.stringify(args)}\n${text}\n`);
    return { calls: 1, tokens: countTokens(text), code: countTokens(args.script ?? args.code), ms: Date.now() - t0, value: r.isError ? undefined : parse(text), error: r.isError ? text.slice(0, 300) : undefined };
  } finally {
    await client.close();
  }
}

const MODES = {
  'ours, call by call': async (task, log) => {
    const client = await connect(ours);
    const agent = new Agent(ours, client, site.origin, log);
    const t0 = Date.now();
    try {
      const value = await CALL_BY_CALL[task](agent);
      return { calls: agent.calls, tokens: agent.tokens, ms: Date.now() - t0, value };
    } catch (e) {
      return { calls: agent.calls, tokens: agent.tokens, ms: Date.now() - t0, error: e.message };
    } finally {
      await client.close();
    }
  },
  'ours, browser_run_script': (task, log) =>
    codeCall(ours, 'browser_run_script', { script: OUR_SCRIPTS[task], args: { origin: site.origin, queries: QUERIES } }, (t) => JSON.parse(/\nreturn: (.*)\n/.exec(t)?.[1] ?? 'null'), log),
  'Playwright MCP, run code': (task, log) =>
    codeCall(playwright, 'browser_run_code_unsafe', { code: PLAYWRIGHT_CODE[task](site.origin) }, (t) => JSON.parse(/### Result\n([^\n]*)/.exec(t)?.[1] ?? 'null'), log),
};

const results = {};
for (const task of Object.keys(CALL_BY_CALL)) {
  results[task] = {};
  for (const [mode, run] of Object.entries(MODES)) {
    const lines = [];
    const r = await run(task, (s) => lines.push(s));
    r.ok = !r.error && CHECK[task](r.value);
    delete r.value;
    results[task][mode] = r;
    if (dump) writeFileSync(join(dump, `${task.replace(/\W+/g, '-')}--${mode.replace(/\W+/g, '-')}.txt`), lines.join('\n'));
    console.error(`${task} / ${mode}: ${r.ok ? 'ok' : `FAILED${r.error ? ` (${r.error})` : ' (wrong answer)'}`}, ${r.calls} calls, ${r.tokens} tokens${r.code ? ` (+${r.code} written)` : ''}, ${r.ms} ms`);
  }
}
await site.close();

const modes = Object.keys(MODES);
const cell = (r) => (r.ok ? `${r.tokens} (${r.calls})` : 'failed');
console.log('\nResult tokens a model reads per task, o200k (tool calls); code written in the last columns\n');
console.log(['task'.padEnd(20), ...modes.map((m) => m.padStart(26)), 'calls ÷'.padStart(9), 'tokens ÷'.padStart(9), 'script tokens'.padStart(14), 'Playwright code'.padStart(16)].join(' '));
for (const [task, r] of Object.entries(results)) {
  const a = r[modes[0]];
  const b = r[modes[1]];
  const callRatio = a.ok && b.ok ? `${(a.calls / b.calls).toFixed(0)}×` : '-';
  const tokenRatio = a.ok && b.ok ? `${(a.tokens / b.tokens).toFixed(1)}×` : '-';
  console.log([task.padEnd(20), ...modes.map((m) => cell(r[m]).padStart(26)), callRatio.padStart(9), tokenRatio.padStart(9), String(b.code ?? '-').padStart(14), String(r[modes[2]].code ?? '-').padStart(16)].join(' '));
}
console.log('\nTarget: browser_run_script ≥ 5× fewer calls and ≥ 3× fewer result tokens than call by call, every task solved.');
if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify(results, null, 2));
if (Object.values(results).some((r) => !r[modes[0]].ok || !r[modes[1]].ok)) process.exitCode = 1;
