// npm run bench:act — model calls and wall time of a 10-step task done with `act`, on local pages
// with a scripted model (a local OpenAI-compatible server), on the first run (empty action cache)
// and on repeat runs (same pages, same cache). Real headless Chromium over CDP, real tools.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ActionCache } from '../src/agent/act/cache';
import { PageActions } from '../src/agent/act/pageActions';
import { openaiProvider } from '../src/agent/providers/openai';
import { SessionManager } from '../src/session/manager';
import { findTool } from '../src/tools/registry';
import { runTool } from '../src/runtime/runner';
import type { ToolContext } from '../src/contract/types';
import { TEST_LAUNCH } from '../test/helpers/chromium';
import { startOpenAIServer } from '../test/helpers/llmServers';
import { startServer } from '../test/helpers/servers';

const PAGES = {
  '/': `<title>Signup 1/3</title><h1>Account</h1><form><label>Name <input id=n></label><label>Email <input id=e></label>
<label>Plan <select id=p><option>Free</option><option>Pro</option></select></label><button type=button onclick="location.href='/2'">Next</button></form>`,
  '/2': `<title>Signup 2/3</title><h1>Address</h1><form><label>Street <input></label><label>City <input></label>
<label>Country <select><option>France</option><option>Italy</option></select></label><button type=button onclick="location.href='/3'">Continue</button></form>`,
  '/3': `<title>Signup 3/3</title><h1>Confirm</h1><form><label><input type=checkbox id=t> I accept the terms</label>
<button type=button onclick="document.title='done'">Create account</button></form>`,
};

/** The task: 10 instructions as a person (or a skill) would write them. */
const STEPS = [
  'type "Ada" into the "Name" field', 'type "ada@example.com" into the "Email" field', 'select "Pro" in the "Plan" list', 'click the "Next" button',
  'type "1 Rue de Rivoli" into the "Street" field', 'type "Paris" into the "City" field', 'select "Italy" in the "Country" list', 'click the "Continue" button',
  'click the "I accept the terms" checkbox', 'click the "Create account" button',
];

/** A deterministic model: reads the quoted element name and value from the instruction and finds the element's ref in the snapshot it was sent. */
function resolve(allText: string): unknown {
  const instr = /Instruction: (.*)/.exec(allText)?.[1] ?? '';
  const q = [...instr.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  const target = q.at(-1)!;
  const line = [...allText.matchAll(/\[(\w+)\] (\w+) "([^"]*)"/g)].find((m) => m[3].startsWith(target));
  if (!line) return { candidates: [] };
  const action = instr.startsWith('type') ? 'type' : instr.startsWith('select') ? 'select' : 'click';
  return { candidates: [{ ref: line[1], action, text: action === 'click' ? undefined : q[0] }] };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const site = await startServer(PAGES);
  const model = await startOpenAIServer((r) => ({ toolCalls: [{ name: 'choose_elements', input: resolve(r.allText) }] }));
  const sessions = new SessionManager(() => ({ mode: 'launch', launch: TEST_LAUNCH }));
  const ctx: ToolContext = {
    sessions,
    browser: () => sessions.ensure(),
    tab: async () => (await sessions.ensure()).activeTab(),
    settings: { allowedSchemes: [], downloadsDir: tmpdir(), maxWaitMs: 15_000 },
  };
  const dir = mkdtempSync(join(tmpdir(), 'ba-bench-act-'));
  const provider = openaiProvider({ apiKey: 'k', model: 'scripted', baseURL: model.baseURL, stream: false, vision: false });
  const ROUNDS = 5;
  const first: { calls: number; ms: number }[] = [];
  const repeat: { calls: number; ms: number }[] = [];
  try {
    const runTask = async (cache: ActionCache) => {
      await runTool(findTool('browser_navigate')!, { url: site.url }, ctx);
      const pa = new PageActions({ provider, ctx, cache, signal: new AbortController().signal, execute: (name, input) => runTool(findTool(name)!, input, ctx) });
      const before = model.requests.length;
      const t = performance.now();
      for (const s of STEPS) {
        const r = await pa.act(s);
        if (!r.ok) throw new Error(`step failed: ${s}: ${r.text}`);
      }
      const ms = performance.now() - t;
      const title = await (await ctx.tab()).evaluate<string>('document.title');
      if (title !== 'done') throw new Error(`the task did not complete (title ${title})`);
      return { calls: model.requests.length - before, ms };
    };
    for (let i = 0; i < ROUNDS; i++) {
      const cache = new ActionCache(join(dir, `cache-${i}.json`));
      first.push(await runTask(cache));
      repeat.push(await runTask(cache));
    }
    console.log(`act: a 10-step task (3 pages: type, select, click) with a scripted model on a local server, median of ${ROUNDS}`);
    console.log('| run | model calls | wall time |\n|---|---:|---:|');
    console.log(`| first run (empty cache) | ${median(first.map((r) => r.calls))} | ${median(first.map((r) => r.ms)).toFixed(0)} ms |`);
    console.log(`| repeat run (cache) | ${median(repeat.map((r) => r.calls))} | ${median(repeat.map((r) => r.ms)).toFixed(0)} ms |`);
    console.log(`ratio repeat/first wall time: ${(median(repeat.map((r) => r.ms)) / median(first.map((r) => r.ms))).toFixed(2)} (the scripted model answers in ~1 ms; a real model adds its latency to every first-run call)`);
  } finally {
    await sessions.close();
    await model.close();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
