// npm run bench:snapshot — our elements layer against Playwright MCP's browser_snapshot, same run,
// same Chromium: time, characters, o200k tokens and recall of rendered interactive elements.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { BrowserSession } from '../src/session/browserSession';
import type { Tab } from '../src/session/tab';
import { takeSnapshot } from '../src/snapshot';
import { TEST_LAUNCH } from '../test/helpers/chromium';
import { findCorpus } from '../test/helpers/corpus';
import { FIXTURE_PAGES_DIR, pageRoutes } from '../test/helpers/pages';
import { startServer } from '../test/helpers/servers';
import { bigPage } from '../test/snapshot/fixtures';

const ROOT = join(__dirname, '../..');
const LIMIT = Number(process.env.BENCH_LIMIT || 0);

/** Names of the rendered interactive elements, by one definition independent of both tools. */
const GROUND_TRUTH = `(() => {
  const sel = 'a[href],button,input:not([type=hidden]),select,textarea,summary,[role=button],[role=link],[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=option],[role=switch],[role=textbox],[role=combobox],[role=slider],[contenteditable=true],[contenteditable=""],[onclick],[tabindex]:not([tabindex="-1"])';
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2 || r.right + scrollX < 0 || r.bottom + scrollY < 0) continue;
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    let name = el.getAttribute('aria-label') || '';
    if (!name && el.labels && el.labels[0]) name = el.labels[0].innerText;
    if (!name && !['INPUT','SELECT','TEXTAREA'].includes(el.tagName)) name = el.innerText;
    if (!name) name = el.getAttribute('placeholder') || el.getAttribute('title') || el.querySelector('img[alt]')?.alt || (el.type === 'submit' ? el.value : '') || '';
    out.push(name.replace(/\\s+/g, ' ').trim().toLowerCase());
  }
  return out;
})()`;

const norm = (s: string) => s.replace(/\\"/g, '"').replace(/\s+/g, ' ').trim().toLowerCase().replace(/…$/, '');

/** Quoted names on lines that carry a ref: `[12] button "Save"` (ours), `- button "Save" [ref=e5]` (theirs). */
function refNames(text: string, ours: boolean): string[] {
  const names: string[] = [];
  for (const l of text.split('\n')) {
    const hasRef = ours ? /^\[(?:f\d+:)?\d+\]/.test(l) : /\[ref=/.test(l);
    if (!hasRef) continue;
    const m = /"((?:[^"\\]|\\.)*)"/.exec(l);
    names.push(m ? norm(m[1]) : '');
  }
  return names;
}

/** Share of named ground-truth elements whose name (first 30 chars) appears on a ref line, matched one to one. */
function recall(truth: string[], names: string[]): number {
  const named = truth.filter(Boolean);
  if (!named.length) return 1;
  const pool = new Map<string, number>();
  for (const n of names) if (n) pool.set(n.slice(0, 30), (pool.get(n.slice(0, 30)) ?? 0) + 1);
  let hit = 0;
  for (const t of named) {
    const k = t.slice(0, 30);
    const c = pool.get(k) ?? 0;
    if (c > 0) {
      hit++;
      pool.set(k, c - 1);
    }
  }
  return hit / named.length;
}

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))];
  return { median: q(0.5), p90: q(0.9) };
}

interface Row {
  page: string;
  elements: number;
  ours: { ms: number; chars: number; tokens: number; recall: number };
  theirs?: { ms: number; chars: number; tokens: number; recall: number };
  error?: string;
}

async function main() {
  // The shared corpus (98 real pages) when it is there; else the in-repository fixture pages, said plainly.
  const found = findCorpus();
  const dir = found.corpus?.dir ?? FIXTURE_PAGES_DIR;
  if (!found.corpus) console.log(`Corpus: ${found.reason}; measuring the in-repository fixture pages (${FIXTURE_PAGES_DIR}) instead.`);
  const pages = (found.corpus?.pages ?? readdirSync(dir).filter((f) => f.endsWith('.html')).sort()).slice(0, LIMIT || undefined);
  const routes: Record<string, string> = pageRoutes(dir, pages);
  for (const n of [1000, 5000, 20000]) routes[`/synthetic-${n}.html`] = bigPage(n);
  const srv = await startServer(routes);
  const browser = await BrowserSession.launch({ ...TEST_LAUNCH, cdpTimeoutMs: 120_000 });
  const port = new URL(browser.endpoint).port;
  const outDir = mkdtempSync(join(tmpdir(), 'ba-bench-pwmcp-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    // Its snapshot files go to a temp folder, not into the repository.
    args: [join(ROOT, 'node_modules/@playwright/mcp/cli.js'), '--cdp-endpoint', `http://127.0.0.1:${port}`, '--output-dir', outDir],
    stderr: 'ignore',
  });
  const mcp = new Client({ name: 'snapshot-bench', version: '1.0.0' });
  let theirsOk = true;
  try {
    await mcp.connect(transport);
  } catch (e) {
    theirsOk = false;
    console.error(`Playwright MCP could not start: ${(e as Error).message}`);
  }
  const call = async (name: string, args: Record<string, unknown>) => {
    const r: any = await mcp.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    return (r.content ?? []).filter((c: any) => c.type === 'text').map((c: any) => c.text).join('\n');
  };
  const rows: Row[] = [];
  const all = [...pages, 'synthetic-1000.html', 'synthetic-5000.html', 'synthetic-20000.html'];
  for (const page of all) {
    const url = srv.url + page;
    try {
      let tab: Tab | undefined;
      let theirs: Row['theirs'];
      if (theirsOk) {
        await call('browser_navigate', { url });
        // Answer any alert() so neither tool hangs on it.
        await call('browser_handle_dialog', { accept: true }).catch(() => {});
        await new Promise((r) => setTimeout(r, 100));
        tab = [...browser.tabs()].map((t) => browser.getTab(t.id)).find((t) => t.url === url);
      }
      if (!tab) {
        tab = await browser.activeTab();
        const s = await tab.session();
        const loaded = s.waitFor('Page.loadEventFired', () => true, 30_000).catch(() => undefined);
        await s.send('Page.navigate', { url });
        await loaded;
      }
      // A page that alert()s on load would block both tools: answer it first.
      if (tab.dialog) await (await tab.session()).send('Page.handleJavaScriptDialog', { accept: true }).catch(() => {});
      const truth: string[] = await tab.evaluate(GROUND_TRUTH, 60_000);
      if (theirsOk) {
        const t0 = performance.now();
        const text = await call('browser_snapshot', {});
        const ms = performance.now() - t0;
        theirs = { ms, chars: text.length, tokens: countTokens(text), recall: recall(truth, refNames(text, false)) };
      }
      const t1 = performance.now();
      const ours = await takeSnapshot(tab);
      const ms = performance.now() - t1;
      const row: Row = { page, elements: truth.length, ours: { ms, chars: ours.length, tokens: countTokens(ours), recall: recall(truth, refNames(ours, true)) }, theirs };
      rows.push(row);
      const f = (x?: { ms: number; tokens: number; recall: number }) => (x ? `${x.ms.toFixed(0).padStart(6)} ms ${String(x.tokens).padStart(8)} tok recall ${(x.recall * 100).toFixed(0).padStart(3)}%` : '-');
      console.log(`${page.padEnd(44)} ${String(truth.length).padStart(6)} el | ours ${f(row.ours)} | theirs ${f(theirs)}${theirs ? ` | tok ${(row.ours.tokens / theirs.tokens).toFixed(2)}x time ${(row.ours.ms / theirs.ms).toFixed(2)}x` : ''}`);
    } catch (e) {
      rows.push({ page, elements: 0, ours: { ms: 0, chars: 0, tokens: 0, recall: 0 }, error: (e as Error).message });
      console.log(`${page}: ERROR ${(e as Error).message}`);
    }
  }
  const corpus = rows.filter((r) => !r.error && !r.page.startsWith('synthetic') && r.theirs);
  const report = (label: string, pick: (r: Row) => number[]) => {
    const ours = stats(corpus.map((r) => pick(r)[0]));
    const theirs = stats(corpus.map((r) => pick(r)[1]));
    const ratio = stats(corpus.map((r) => pick(r)[0] / Math.max(pick(r)[1], 1e-9)));
    console.log(`${label.padEnd(8)} ours median ${ours.median.toFixed(label === 'recall' ? 3 : 0)} p90 ${ours.p90.toFixed(label === 'recall' ? 3 : 0)} | theirs median ${theirs.median.toFixed(label === 'recall' ? 3 : 0)} p90 ${theirs.p90.toFixed(label === 'recall' ? 3 : 0)} | per-page ratio median ${ratio.median.toFixed(2)} p90 ${ratio.p90.toFixed(2)}`);
  };
  console.log(`\nCorpus (${dir}): ${corpus.length} pages compared (${rows.filter((r) => r.error).length} errors)`);
  if (corpus.length) {
    report('time', (r) => [r.ours.ms, r.theirs!.ms]);
    report('chars', (r) => [r.ours.chars, r.theirs!.chars]);
    report('tokens', (r) => [r.ours.tokens, r.theirs!.tokens]);
    report('recall', (r) => [r.ours.recall, r.theirs!.recall]);
    const meanRecall = (k: 'ours' | 'theirs') => corpus.reduce((a, r) => a + r[k]!.recall, 0) / corpus.length;
    console.log(`recall mean: ours ${meanRecall('ours').toFixed(3)}, theirs ${meanRecall('theirs').toFixed(3)}`);
  }
  console.log('\nSynthetic:');
  for (const r of rows.filter((x) => x.page.startsWith('synthetic') && !x.error)) {
    const n = Number(/(\d+)/.exec(r.page)![1]);
    console.log(`${n} elements: ours ${r.ours.ms.toFixed(0)} ms, ${r.ours.tokens} tokens (${(r.ours.tokens / n).toFixed(1)}/element), recall ${(r.ours.recall * 100).toFixed(1)}%` + (r.theirs ? ` | theirs ${r.theirs.ms.toFixed(0)} ms, ${r.theirs.tokens} tokens (${(r.theirs.tokens / n).toFixed(1)}/element), recall ${(r.theirs.recall * 100).toFixed(1)}%` : ''));
  }
  await mcp.close().catch(() => {});
  await browser.close();
  await srv.close();
  rmSync(outDir, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
