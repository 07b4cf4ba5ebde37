// npm run bench:bigpage — the synthetic pages with 1k/5k/20k interactive elements read through the real MCP
// server (dist/mcp.js over stdio, attached with --cdp-url to a Chromium this script launches): wall time of
// browser_snapshot, the CPU time the browser's and the server's processes spent on it (what the call costs
// on an idle machine of this kind, whatever else this shared machine runs), and o200k tokens per element
// of the whole read (first call and every continuation it names).
// BENCH_RUNS=n calls per page (default 5); BENCH_SIZES=1000,20000; BENCH_PROFILE=1 also prints where the
// renderer's time goes during one call (CDP Profiler, self time per function).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { BrowserSession } from '../src/session/browserSession';
import { TEST_LAUNCH } from '../test/helpers/chromium';
import { startServer } from '../test/helpers/servers';
import { bigPage } from '../test/snapshot/fixtures';

const ROOT = join(__dirname, '../..');
const RUNS = Number(process.env.BENCH_RUNS || 5);
const SIZES = (process.env.BENCH_SIZES || '1000,5000,20000').split(',').map(Number);
const PROFILE = !!process.env.BENCH_PROFILE;
const TICKS = 100; // USER_HZ on Linux

/** CPU seconds (user + system) of a process and all its descendants, from /proc. */
function cpuOfTree(root: number): number {
  const children = new Map<number, number[]>();
  const cpu = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(d);
      const ppid = Number(f[1]);
      cpu.set(pid, (Number(f[11]) + Number(f[12])) / TICKS);
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    } catch {
      // the process ended while we read
    }
  }
  let sum = 0;
  const stack = [root];
  while (stack.length) {
    const p = stack.pop()!;
    sum += cpu.get(p) ?? 0;
    stack.push(...(children.get(p) ?? []));
  }
  return sum;
}

/** CPU seconds of the main thread of each renderer process under `root` (the thread that runs the page's scripts). */
function rendererMainThreads(root: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (!readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      if (!isDescendant(Number(d), root)) continue;
      const stat = readFileSync(`/proc/${d}/task/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(d), (Number(f[11]) + Number(f[12])) / TICKS);
    } catch {
      // the process ended while we read
    }
  }
  return out;
}

function isDescendant(pid: number, root: number): boolean {
  for (let p = pid, i = 0; p > 1 && i < 20; i++) {
    if (p === root) return true;
    const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
    p = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  }
  return false;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function main() {
  const routes: Record<string, string> = {};
  for (const n of SIZES) routes[`/synthetic-${n}.html`] = bigPage(n);
  const srv = await startServer(routes);
  const browser = await BrowserSession.launch({ ...TEST_LAUNCH, cdpTimeoutMs: 120_000 });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'dist/mcp.js'), '--cdp-url', browser.endpoint, '--no-daemon', '--audit-dir', 'off'],
    stderr: 'ignore',
  });
  const mcp = new Client({ name: 'bigpage-bench', version: '1.0.0' });
  await mcp.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const r: any = await mcp.callTool({ name, arguments: args }, undefined, { timeout: 300_000 });
    const text = (r.content ?? []).filter((c: any) => c.type === 'text').map((c: any) => c.text).join('\n');
    if (r.isError) throw new Error(`${name}: ${text}`);
    return text;
  };
  const cpuNow = () => [cpuOfTree(browser.pid!), cpuOfTree(transport.pid!)];
  console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}; ${RUNS} calls per page`);
  for (const n of SIZES) {
    await call('browser_navigate', { url: `${srv.url}synthetic-${n}.html` });
    const walls: number[] = [];
    const cpus: number[] = [];
    const serverCpus: number[] = [];
    const pageCpus: number[] = [];
    let first = '';
    for (let i = 0; i < RUNS; i++) {
      const r0 = rendererMainThreads(browser.pid!);
      const c0 = cpuNow();
      const t0 = performance.now();
      first = await call('browser_snapshot');
      walls.push(performance.now() - t0);
      const c1 = cpuNow();
      cpus.push(c1[0] - c0[0] + c1[1] - c0[1]);
      serverCpus.push(c1[1] - c0[1]);
      const r1 = rendererMainThreads(browser.pid!);
      pageCpus.push(Math.max(0, ...[...r1].map(([pid, c]) => c - (r0.get(pid) ?? 0))));
    }
    // The whole read: the first call and every continuation it names, as a model would read it.
    let tokensAll = countTokens(first);
    let parts = 1;
    for (let m = /offset=(\d+)/.exec(first); m; parts++) {
      const more = await call('browser_snapshot', { offset: Number(m[1]) });
      tokensAll += countTokens(more);
      m = /\[Cut by[^\]]*offset=(\d+)/.exec(more);
    }
    console.log(
      `${String(n).padStart(6)} elements: browser_snapshot median ${median(walls).toFixed(0)} ms wall (min ${Math.min(...walls).toFixed(0)}), ` +
        `CPU ${median(cpus).toFixed(2)} s (min ${Math.min(...cpus).toFixed(2)}; of it the server ${median(serverCpus).toFixed(2)} s, the page's renderer thread ${median(pageCpus).toFixed(2)} s, min ${Math.min(...pageCpus).toFixed(2)}); first call ${countTokens(first)} tokens; whole read ${tokensAll} tokens in ${parts} parts = ${(tokensAll / n).toFixed(1)} per element`,
    );
    console.log(`        each call: ${walls.map((w, i) => `${w.toFixed(0)} ms (renderer ${pageCpus[i].toFixed(2)} s, server ${serverCpus[i].toFixed(2)} s)`).join(', ')}`);
    if (PROFILE) await profile(browser, call);
  }
  await mcp.close().catch(() => {});
  await browser.close();
  await srv.close();
}

/** Self time per function in the page's renderer during one browser_snapshot call. */
async function profile(browser: BrowserSession, call: (name: string) => Promise<string>) {
  const tab = await browser.activeTab();
  const s = await tab.session();
  await s.send('Profiler.enable');
  await s.send('Profiler.setSamplingInterval', { interval: 200 });
  await s.send('Profiler.start');
  await call('browser_snapshot');
  const { profile: p } = (await s.send('Profiler.stop')) as any;
  const self = new Map<string, number>();
  const dt = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i + 1] ?? 0) / 1000);
  for (const node of p.nodes) {
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url ? f.url.split('/').pop() : ''}:${f.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (dt.get(node.id) ?? 0));
  }
  // Inclusive time: a function's own samples and those of everything it called (counted once per stack).
  const byId = new Map<number, any>(p.nodes.map((n: any) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const total = new Map<string, number>();
  const keyOf = (n: any) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url ? n.callFrame.url.split('/').pop() : ''}:${n.callFrame.lineNumber}`;
  for (const [id, ms] of dt) {
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const k = keyOf(byId.get(n));
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + ms);
    }
  }
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25);
  for (const [k, ms] of top) console.log(`    self ${ms.toFixed(0).padStart(6)} ms  total ${(total.get(k) ?? 0).toFixed(0).padStart(6)} ms  ${k}`);
  console.log('    by total:');
  for (const [k, ms] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`    total ${ms.toFixed(0).padStart(6)} ms  ${k}`);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
