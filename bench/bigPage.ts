// npm run bench:bigpage — the synthetic pages with 1k/5k/20k interactive elements read through the real MCP
// server (dist/mcp.js over stdio, attached with --cdp-url to a Chromium this script launches): wall time of
// browser_snapshot, the CPU time the browser's and the server's processes spent on it, and o200k tokens per
// element of the whole read (first call and every continuation it names).
// This machine is shared, so wall times alone say more about the other users than about the snapshot. Each
// call is therefore also accounted from the kernel's scheduler statistics (/proc/<pid>/task/<tid>/schedstat):
// the time the threads on the call's path (the page's renderer main thread, the server's main thread, this
// client's main thread) sat runnable waiting for a CPU that other processes held. Wall time minus that wait
// is the call's time on an idle machine of this kind (floored at the path's CPU time, as two threads' waits can
// overlap; conservative: waits of the browser process's IO threads are not subtracted). Medians of the calls are
// printed with the load average before and after each page.
// BENCH_RUNS=n calls per page (default 7); BENCH_SIZES=1000,20000; BENCH_PROFILE=1 also prints where the
// renderer's time goes during one call (CDP Profiler, self time per function; BA_INPAGE_READABLE=1 when
// building keeps the in-page function names) and where the server side's time goes (Node inspector).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { BrowserSession } from '../src/session/browserSession';
import { TEST_LAUNCH } from '../test/helpers/chromium';
import { startServer } from '../test/helpers/servers';
import { bigPage } from '../test/snapshot/fixtures';
import { Session as Inspector } from 'node:inspector/promises';
import { takeSnapshot } from '../src/snapshot';

const ROOT = join(__dirname, '../..');
const RUNS = Number(process.env.BENCH_RUNS || 7);
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

/** [ms on a CPU, ms runnable but waiting for one] of one thread, from the scheduler's statistics. */
function schedOf(pid: number, tid = pid): [number, number] {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
    return [run / 1e6, wait / 1e6];
  } catch {
    return [0, 0];
  }
}

const loadAvg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

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
  console.log(`${RUNS} calls per page; ${cpus().length} CPUs`);
  for (const n of SIZES) {
    await call('browser_navigate', { url: `${srv.url}synthetic-${n}.html` });
    const loadBefore = loadAvg();
    const walls: number[] = [];
    const idle: number[] = [];
    const waits: number[] = [];
    const paths: number[] = [];
    const cpuSums: number[] = [];
    const serverCpus: number[] = [];
    const pageCpus: number[] = [];
    let first = '';
    for (let i = 0; i < RUNS; i++) {
      const r0 = rendererMainThreads(browser.pid!);
      const c0 = cpuNow();
      const s0 = [schedOf(transport.pid!), schedOf(process.pid)];
      const q0 = new Map([...r0.keys()].map((pid) => [pid, schedOf(pid)]));
      const t0 = performance.now();
      first = await call('browser_snapshot');
      const wall = performance.now() - t0;
      const s1 = [schedOf(transport.pid!), schedOf(process.pid)];
      const c1 = cpuNow();
      const r1 = rendererMainThreads(browser.pid!);
      // The page's renderer: the one whose main thread ran during the call.
      let page = { run: 0, wait: 0 };
      for (const [pid, q] of q0) {
        const q1 = schedOf(pid);
        if (q1[0] - q[0] > page.run) page = { run: q1[0] - q[0], wait: q1[1] - q[1] };
      }
      const wait = page.wait + (s1[0][1] - s0[0][1]) + (s1[1][1] - s0[1][1]);
      walls.push(wall);
      waits.push(wait);
      // Waits of two threads can overlap (the renderer collecting garbage while the server formats): the
      // call can never take less than the CPU time of its path, which runs one step after the other.
      const path = page.run + (s1[0][0] - s0[0][0]) + (s1[1][0] - s0[1][0]);
      paths.push(path);
      idle.push(Math.max(path, wall - wait));
      cpuSums.push(c1[0] - c0[0] + c1[1] - c0[1]);
      serverCpus.push(s1[0][0] - s0[0][0]);
      pageCpus.push(page.run || Math.max(0, ...[...r1].map(([pid, c]) => (c - (r0.get(pid) ?? 0)) * 1000)));
    }
    // The whole read, every element and all text once: the first call with fullText (unfolded) and every
    // continuation it names, as a model reading the whole page would.
    const whole = await call('browser_snapshot', { fullText: true });
    let tokensAll = countTokens(whole);
    let parts = 1;
    for (let m = /\[Cut by[^\]]*offset=(\d+)/.exec(whole); m; parts++) {
      const more = await call('browser_snapshot', { offset: Number(m[1]) });
      tokensAll += countTokens(more);
      m = /\[Cut by[^\]]*offset=(\d+)/.exec(more);
    }
    const ms = (x: number) => `${x.toFixed(0)} ms`;
    console.log(
      `${String(n).padStart(6)} elements (load ${loadBefore} → ${loadAvg()}): browser_snapshot wall median ${ms(median(walls))} (min ${ms(Math.min(...walls))}); ` +
        `waiting for a CPU ${ms(median(waits))}; wall less that wait median ${ms(median(idle))} (min ${ms(Math.min(...idle))}, max ${ms(Math.max(...idle))}); ` +
        `CPU on the call's path (renderer main thread ${ms(median(pageCpus))} + server main thread ${ms(median(serverCpus))} + client) ${ms(median(paths))}; browser + server processes in all ${ms(median(cpuSums) * 1000)}`,
    );
    console.log(`        first call ${countTokens(first)} tokens; whole read ${tokensAll} tokens in ${parts} parts = ${(tokensAll / n).toFixed(1)} per element`);
    console.log(`        each call: ${walls.map((w, i) => `${ms(w)} wall, ${ms(idle[i])} less wait (renderer ${ms(pageCpus[i])}, server ${ms(serverCpus[i])})`).join('; ')}`);
    if (PROFILE) {
      await profile(browser, call);
      await profileServer(browser);
    }
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

/**
 * Where the server side's time goes: the same snapshot taken in this process (the code dist/mcp.js runs),
 * profiled with Node's inspector — self time per function, renderer wait included as (idle)/(program).
 */
async function profileServer(browser: BrowserSession) {
  const tab = await browser.activeTab();
  await takeSnapshot(tab); // warm: world installed, code compiled
  const ins = new Inspector();
  ins.connect();
  await ins.post('Profiler.enable');
  await ins.post('Profiler.setSamplingInterval', { interval: 200 });
  await ins.post('Profiler.start');
  const t0 = performance.now();
  const n = 3;
  for (let i = 0; i < n; i++) await takeSnapshot(tab);
  const wall = (performance.now() - t0) / n;
  const { profile: p } = (await ins.post('Profiler.stop')) as any;
  ins.disconnect();
  const self = new Map<string, number>();
  const dt = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i + 1] ?? 0) / 1000 / n);
  for (const node of p.nodes) {
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url ? f.url.split('/').pop() : ''}:${f.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (dt.get(node.id) ?? 0));
  }
  console.log(`    server side in this process: ${wall.toFixed(0)} ms wall per takeSnapshot; self time per call:`);
  for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`    self ${ms.toFixed(1).padStart(7)} ms  ${k}`);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
