// npm run bench:snapshot — our elements layer against Playwright MCP's browser_snapshot ("theirs") and
// chrome-devtools-mcp's take_snapshot ("cdm"), same run, same Chromium: time, characters, o200k tokens,
// recall of rendered interactive elements and text coverage (share of the page's visible words in the
// snapshot, also with our continuation calls).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
/** Only pages whose file name matches this regular expression (e.g. `synthetic`). */
const ONLY = process.env.BENCH_PAGES ? new RegExp(process.env.BENCH_PAGES) : undefined;
/**
 * Iterating on our side only: Playwright MCP's figures per page are read from (and written to) this JSON
 * file, so it is not called again for pages it has already been measured on. Leave unset for a real run.
 */
const THEIRS_CACHE = process.env.BENCH_THEIRS_CACHE;
/** The same for chrome-devtools-mcp's figures (a file of its own, same shape: page → figures). */
const CDM_CACHE = process.env.BENCH_CDM_CACHE;
/** `BENCH_CDM=0`: leave chrome-devtools-mcp out (its columns say so). */
const CDM_ON = !/^(0|false|off)$/i.test(process.env.BENCH_CDM ?? '');
/** Pages chrome-devtools-mcp is not asked about (regular expression on the file name; e.g. `synthetic-20000`). */
const CDM_SKIP = process.env.BENCH_CDM_SKIP ? new RegExp(process.env.BENCH_CDM_SKIP) : undefined;
/** Folder to write our snapshot of each page to (all continuation parts), for reading what the tokens went to. */
const DUMP = process.env.BENCH_DUMP;
/** File to write the per-page rows to, as JSON. */
const JSON_OUT = process.env.BENCH_JSON;
/** Our snapshot budget (as `--snapshot-max-tokens` / `browserAgent.snapshot.maxTokens` set it); unset: the default. */
const MAX_TOKENS = process.env.BENCH_MAX_TOKENS ? Number(process.env.BENCH_MAX_TOKENS) : undefined;
/** Where our snapshot folds a long page's text (as `--snapshot-fold-text-after` sets it; 0 never folds); unset: the default. */
const FOLD = process.env.BENCH_FOLD !== undefined ? Number(process.env.BENCH_FOLD) : undefined;

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

/** Names of the synthetic pages' controls, all rendered: label, aria-label or text. */
const SYNTHETIC_TRUTH = `Array.from(document.querySelectorAll('a[href],button,input'), (el) => (el.getAttribute('aria-label') || (el.labels && el.labels[0] ? el.labels[0].textContent : el.textContent) || '').replace(/\\s+/g, ' ').trim().toLowerCase())`;

/** The text a reader sees: the body's innerText, same-origin iframes included. */
const VISIBLE_TEXT = `(() => {
  const parts = [];
  const add = (doc) => {
    if (!doc || !doc.body) return;
    parts.push(doc.body.innerText);
    for (const f of doc.querySelectorAll('iframe, frame')) { try { add(f.contentDocument); } catch {} }
  };
  add(document);
  return parts.join('\\n');
})()`;

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Share of the page's distinct words, and of its word occurrences, that the snapshot text carries. */
function coverage(pageText: string, snapshot: string): { distinct: number; occurrences: number } {
  const want = new Map<string, number>();
  for (const w of words(pageText)) want.set(w, (want.get(w) ?? 0) + 1);
  if (!want.size) return { distinct: 1, occurrences: 1 };
  const have = new Map<string, number>();
  for (const w of words(snapshot)) have.set(w, (have.get(w) ?? 0) + 1);
  let distinct = 0;
  let total = 0;
  let carried = 0;
  for (const [w, n] of want) {
    const h = have.get(w) ?? 0;
    if (h) distinct++;
    total += n;
    carried += Math.min(n, h);
  }
  return { distinct: distinct / want.size, occurrences: carried / total };
}

/** Each distinct word of the page text the snapshot lacks, one a line with its first place in the page text. */
function missingWords(pageText: string, snapshot: string): string {
  const have = new Set(words(snapshot));
  const lower = pageText.toLowerCase();
  const lines: string[] = [];
  for (const w of new Set(words(pageText))) {
    if (have.has(w)) continue;
    const at = lower.search(new RegExp(`(?<![\\p{L}\\p{N}])${w}(?![\\p{L}\\p{N}])`, 'u'));
    lines.push(`${w}\t${JSON.stringify(pageText.slice(Math.max(0, at - 40), at + w.length + 40))}`);
  }
  return lines.join('\n') + (lines.length ? '\n' : '');
}

/** Writes `<page><ext>` into the BENCH_DUMP folder, when one is given. */
function dump(page: string, ext: string, text: string) {
  if (!DUMP) return;
  mkdirSync(DUMP, { recursive: true });
  writeFileSync(join(DUMP, page.replace(/\.html$/, ext)), text);
}

/** `offset=N` in a snapshot's continuation note, if it has one. */
function nextOffset(snapshot: string): number | undefined {
  const m = /browser_snapshot with offset=(\d+)/.exec(snapshot);
  return m ? Number(m[1]) : undefined;
}

const norm = (s: string) => s.replace(/\\"/g, '"').replace(/\s+/g, ' ').trim().toLowerCase().replace(/…$/, '');

/** Quoted names on lines that carry a ref: `[12] button "Save"` (ours), `- button "Save" [ref=e5]` (theirs). */
function refNames(text: string, ours: boolean): string[] {
  const names: string[] = [];
  // Reading on from a fold shows elements of the first call again: each ref counts once.
  const seen = new Set<string>();
  for (const l of text.split('\n')) {
    const ref = ours ? /^\[((?:f\d+:)?\d+)\]/.exec(l)?.[1] : /\[ref=/.test(l) ? l : undefined;
    if (ref === undefined || (ours && seen.has(ref))) continue;
    seen.add(ref);
    const m = /"((?:[^"\\]|\\.)*)"/.exec(l);
    names.push(m ? norm(m[1]) : '');
  }
  return names;
}

/**
 * Names on chrome-devtools-mcp's take_snapshot lines that carry a role: `uid=1_5 button "Submit" focusable`.
 * Every line there has a uid; a line without a role (`uid=1_6 "some text"`) is page text, not an element,
 * as Playwright MCP's `- text: …` lines carry no ref. Names are not escaped: one runs to the quote that is
 * followed by an attribute (`level="1"`, `focusable`) or the end of the line.
 */
function uidNames(text: string): string[] {
  const names: string[] = [];
  for (const l of text.split('\n')) {
    const m = /^\s*uid=\S+ ([^\s"]\S*)(?: "(.*?)"(?= [a-z][\w-]*(?:="|\s|$)| \[selected|$))?/.exec(l);
    if (!m) continue;
    names.push(m[2] ? norm(m[2]) : '');
  }
  return names;
}

/** Share of named ground-truth elements whose name (first 30 chars) appears on a ref line, matched one to one. */
function recall(truth: string[], names: string[]): number {
  const named = truth.filter(Boolean);
  return named.length ? (named.length - unmatched(truth, names).length) / named.length : 1;
}

/** The named ground-truth elements `recall` finds no ref line for (matched one to one on their first 30 chars), in page order. */
function unmatched(truth: string[], names: string[]): string[] {
  const pool = new Map<string, number>();
  for (const n of names) if (n) pool.set(n.slice(0, 30), (pool.get(n.slice(0, 30)) ?? 0) + 1);
  const missed: string[] = [];
  for (const t of truth.filter(Boolean)) {
    const k = t.slice(0, 30);
    const c = pool.get(k) ?? 0;
    if (c > 0) pool.set(k, c - 1);
    else missed.push(t);
  }
  return missed;
}

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))];
  return { median: q(0.5), p90: q(0.9) };
}

interface Measure {
  ms: number;
  chars: number;
  tokens: number;
  recall: number;
  /** Share of distinct visible words, and of word occurrences, in this one call. */
  words: number;
  occurrences: number;
}

interface Row {
  page: string;
  elements: number;
  /** Our first call folded the page's text (all elements still listed). */
  folded?: boolean;
  ours: Measure & {
    /** Recall of the first call alone (`recall` counts every part read). */
    recallFirst?: number;
    /** With the continuation calls the snapshot points to (offset=…), all parts together. */
    wordsAll: number;
    occurrencesAll: number;
    parts: number;
    /** Tokens of all parts together. */
    tokensAll: number;
  };
  theirs?: Measure;
  /** chrome-devtools-mcp 1.11.0 (take_snapshot). */
  cdm?: Measure;
  /** Why chrome-devtools-mcp has no figures for this page (failed, skipped, not started). */
  cdmError?: string;
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
  const cache: Record<string, Measure> = THEIRS_CACHE && existsSync(THEIRS_CACHE) ? JSON.parse(readFileSync(THEIRS_CACHE, 'utf8')) : {};
  const cdmCache: Record<string, Measure> = CDM_CACHE && existsSync(CDM_CACHE) ? JSON.parse(readFileSync(CDM_CACHE, 'utf8')) : {};
  const all = [...pages, 'synthetic-1000.html', 'synthetic-5000.html', 'synthetic-20000.html'].filter((p) => !ONLY || ONLY.test(p));
  const transport = new StdioClientTransport({
    command: process.execPath,
    // Its snapshot files go to a temp folder, not into the repository.
    args: [join(ROOT, 'node_modules/@playwright/mcp/cli.js'), '--cdp-endpoint', `http://127.0.0.1:${port}`, '--output-dir', outDir],
    stderr: 'ignore',
  });
  const mcp = new Client({ name: 'snapshot-bench', version: '1.0.0' });
  let theirsOk = all.some((p) => !cache[p]);
  if (theirsOk) {
    try {
      await mcp.connect(transport);
    } catch (e) {
      theirsOk = false;
      console.error(`Playwright MCP could not start: ${(e as Error).message}`);
    }
  }
  const call = async (name: string, args: Record<string, unknown>) => {
    const r: any = await mcp.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    return (r.content ?? []).filter((c: any) => c.type === 'text').map((c: any) => c.text).join('\n');
  };
  // chrome-devtools-mcp, attached to the same Chromium. It snapshots the selected page, so each page is
  // selected by its URL (list_pages / select_page) after it has loaded; only take_snapshot is timed.
  // No usage statistics, CrUX look-ups or update checks: the bench runs offline.
  const cdm = new Client({ name: 'snapshot-bench', version: '1.0.0' });
  /** Why chrome-devtools-mcp is not (or no longer) asked; undefined while it works. */
  let cdmDown: string | undefined = !CDM_ON ? 'off (BENCH_CDM=0)' : all.some((p) => !cdmCache[p] && !CDM_SKIP?.test(p)) ? undefined : 'all pages cached';
  let cdmStarted = false;
  let cdmStderr = '';
  if (!cdmDown) {
    const cdmTransport = new StdioClientTransport({
      command: process.execPath,
      args: [
        join(ROOT, 'node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js'),
        '--browserUrl',
        `http://127.0.0.1:${port}`,
        '--no-page-id-routing',
        '--no-usage-statistics',
        '--no-performance-crux',
      ],
      env: { CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1', CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1' },
      stderr: 'pipe',
    });
    // Keep the end of its stderr, to say why it stopped if it does: its last error line, else its last line.
    cdmTransport.stderr?.on('data', (d: Buffer) => void (cdmStderr = (cdmStderr + d.toString()).slice(-4000)));
    const why = () => {
      const lines = cdmStderr.split('\n').map((l) => l.trim()).filter(Boolean);
      const line = lines.filter((l) => /error/i.test(l)).pop() ?? lines.pop();
      return line ? ` (${line.slice(0, 200)})` : '';
    };
    try {
      await cdm.connect(cdmTransport);
      cdmStarted = true;
      cdm.onclose = () => void (cdmDown ??= `chrome-devtools-mcp exited${why()}`);
    } catch (e) {
      cdmDown = `could not start: ${(e as Error).message}${why()}`;
      console.error(`chrome-devtools-mcp ${cdmDown}`);
    }
  }
  const cdmCall = async (name: string, args: Record<string, unknown>) => {
    const r: any = await cdm.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    const text = (r.content ?? []).filter((c: any) => c.type === 'text').map((c: any) => c.text).join('\n');
    if (r.isError) throw new Error(`${name}: ${text.replace(/\s+/g, ' ').slice(0, 300)}`);
    return text;
  };
  /** chrome-devtools-mcp's snapshot of the loaded page at `url` (the tab's current URL `at`, if it moved). */
  const cdmSnapshot = async (url: string, at: string) => {
    // Its lines: `3: <title> (<url>) [selected]`, or `3: <url>` for a page without a title.
    const lines = [...(await cdmCall('list_pages', {})).matchAll(/^(\d+): (.*)$/gm)].map((m) => ({ id: Number(m[1]), rest: m[2] }));
    const shows = (rest: string, u: string) => rest.includes(` (${u})`) || rest === u || rest.startsWith(`${u} [`) || rest.startsWith(`${u} isolatedContext=`);
    const id = (lines.find((l) => shows(l.rest, at)) ?? lines.find((l) => shows(l.rest, url)))?.id;
    if (id === undefined) throw new Error(`page not in its list_pages (${lines.map((l) => l.rest).join(' | ').slice(0, 300)})`);
    await cdmCall('select_page', { pageId: id });
    const snap = async () => {
      const t0 = performance.now();
      const text = await cdmCall('take_snapshot', {});
      return { text, ms: performance.now() - t0 };
    };
    try {
      return await snap();
    } catch (e) {
      // A dialog the bench answered over CDP is still open to it (its puppeteer did not handle it): answer it there too.
      if (!/dialog is open/i.test((e as Error).message)) throw e;
      await cdmCall('handle_dialog', { action: 'accept' }).catch(() => {});
      return await snap();
    }
  };
  const rows: Row[] = [];
  for (const page of all) {
    const url = srv.url + page;
    try {
      let tab: Tab | undefined;
      let theirs: Row['theirs'] = cache[page];
      const askTheirs = theirsOk && !theirs;
      if (askTheirs) {
        await call('browser_navigate', { url });
        // Answer any alert() so neither tool hangs on it.
        await call('browser_handle_dialog', { accept: true }).catch(() => {});
        await new Promise((r) => setTimeout(r, 100));
        tab = [...browser.tabs()].map((t) => browser.getTab(t.id)).find((t) => t.url === url);
      }
      if (!tab) {
        tab = await browser.activeTab();
        const s = await tab.session();
        const onDialog = () => void s.send('Page.handleJavaScriptDialog', { accept: true }).catch(() => {});
        tab.on('dialog', onDialog);
        const loaded = s.waitFor('Page.loadEventFired', () => true, 30_000).catch(() => undefined);
        await s.send('Page.navigate', { url });
        await loaded;
        for (let i = 0; i < 50 && tab.dialog; i++) await new Promise((r) => setTimeout(r, 20));
        tab.off('dialog', onDialog);
      }
      // A page that alert()s on load would block both tools: answer it first.
      if (tab.dialog) await (await tab.session()).send('Page.handleJavaScriptDialog', { accept: true }).catch(() => {});
      const tg = performance.now();
      // The synthetic pages render every control they hold, so their truth needs no layout queries (which take minutes at 20k).
      const truth: string[] = await tab.evaluate(page.startsWith('synthetic') ? SYNTHETIC_TRUTH : GROUND_TRUTH, 120_000);
      if (process.env.BA_SNAPSHOT_TIMING) console.error(`[bench] ground truth ${(performance.now() - tg).toFixed(0)} ms`);
      const text: string = await tab.evaluate(VISIBLE_TEXT, 120_000);
      if (process.env.BA_SNAPSHOT_TIMING) console.error(`[bench] ground truth and visible text ${(performance.now() - tg).toFixed(0)} ms`);
      if (askTheirs) {
        const t0 = performance.now();
        const snap = await call('browser_snapshot', {});
        const ms = performance.now() - t0;
        const cov = coverage(text, snap);
        theirs = { ms, chars: snap.length, tokens: countTokens(snap), recall: recall(truth, refNames(snap, false)), words: cov.distinct, occurrences: cov.occurrences };
        dump(page, '.pw.txt', snap);
        cache[page] = theirs;
      }
      const t1 = performance.now();
      const ours = await takeSnapshot(tab, { maxTokens: MAX_TOKENS, foldTextAfter: FOLD });
      const ms = performance.now() - t1;
      const cov = coverage(text, ours);
      // Follow the continuation the snapshot offers, as a model would, to see what the whole read carries.
      // A synthetic page is read whole with all its text from the start (fullText): every element once,
      // the tokens per element of the whole page.
      const synthetic = page.startsWith('synthetic');
      const start = synthetic ? await takeSnapshot(tab, { maxTokens: MAX_TOKENS, fullText: true }) : ours;
      let whole = start;
      let tokensAll = countTokens(start);
      let parts = 1;
      for (let off = nextOffset(start); off !== undefined && parts < 200; parts++) {
        const more = await takeSnapshot(tab, { offset: off, maxTokens: MAX_TOKENS });
        whole += '\n' + more;
        tokensAll += countTokens(more);
        const next = nextOffset(more);
        if (next !== undefined && next <= off) throw new Error(`continuation does not advance (offset ${off} → ${next})`);
        off = next;
      }
      // Long option lists are one marked call away: read them as the marker says.
      for (const m of whole.matchAll(/^\[((?:f\d+:)?\d+)\] .*\(\d+ of \d+; browser_snapshot with this ref lists all\)/gm)) {
        whole += '\n' + (await takeSnapshot(tab, { ref: m[1] }));
        parts++;
      }
      const covAll = parts > 1 ? coverage(text, whole) : cov;
      // chrome-devtools-mcp last, so that its accessibility-tree snapshot runs after the others on this page.
      let cdmFig: Measure | undefined = cdmCache[page];
      let cdmError: string | undefined;
      if (!cdmFig) {
        if (cdmDown) cdmError = cdmDown;
        else if (CDM_SKIP?.test(page)) cdmError = 'skipped (BENCH_CDM_SKIP)';
        else {
          try {
            const { text: snap, ms } = await cdmSnapshot(url, tab.url);
            const cov = coverage(text, snap);
            cdmFig = { ms, chars: snap.length, tokens: countTokens(snap), recall: recall(truth, uidNames(snap)), words: cov.distinct, occurrences: cov.occurrences };
            dump(page, '.cdm.txt', snap);
            cdmCache[page] = cdmFig;
          } catch (e) {
            cdmError = cdmDown ?? (e as Error).message;
          }
        }
      }
      if (DUMP) {
        dump(page, '.txt', whole);
        dump(page, '.innertext', text);
        dump(page, '.missing', missingWords(text, whole));
        const missed = unmatched(truth, refNames(whole, true));
        dump(page, '.unmatched', missed.map((n) => JSON.stringify(n) + '\n').join(''));
      }
      const names = refNames(whole, true);
      const row: Row = {
        page,
        elements: truth.length,
        folded: /\[Page text folded after line \d+/.test(ours),
        ours: {
          ms, chars: ours.length, tokens: countTokens(ours), recall: recall(truth, names), recallFirst: recall(truth, refNames(ours, true)),
          words: cov.distinct, occurrences: cov.occurrences, wordsAll: covAll.distinct, occurrencesAll: covAll.occurrences, parts, tokensAll,
        },
        theirs,
        cdm: cdmFig,
        cdmError,
      };
      rows.push(row);
      const pct = (x: number) => (x * 100).toFixed(0).padStart(3) + '%';
      const f = (x?: Measure) => (x ? `${x.ms.toFixed(0).padStart(6)} ms ${String(x.tokens).padStart(8)} tok recall ${pct(x.recall)} words ${pct(x.words)}` : '-');
      const o = row.ours;
      console.log(
        `${page.padEnd(40)} ${String(truth.length).padStart(6)} el | ours ${f(o)}${parts > 1 ? ` (${parts} parts: words ${pct(o.wordsAll)} occ ${pct(o.occurrencesAll)})` : ` occ ${pct(o.occurrences)}`} | theirs ${f(theirs)}${theirs ? ` | tok ${(o.tokens / theirs.tokens).toFixed(2)}x time ${(o.ms / theirs.ms).toFixed(2)}x` : ''}` +
          ` | cdm ${cdmFig ? `${f(cdmFig)} | tok ${(o.tokens / cdmFig.tokens).toFixed(2)}x time ${(o.ms / cdmFig.ms).toFixed(2)}x` : `- (${cdmError})`}`,
      );
    } catch (e) {
      rows.push({ page, elements: 0, ours: { ms: 0, chars: 0, tokens: 0, recall: 0, words: 0, occurrences: 0, wordsAll: 0, occurrencesAll: 0, parts: 0, tokensAll: 0 }, error: (e as Error).message });
      console.log(`${page}: ERROR ${(e as Error).message}`);
    }
  }
  if (THEIRS_CACHE) writeFileSync(THEIRS_CACHE, JSON.stringify(cache));
  if (CDM_CACHE) writeFileSync(CDM_CACHE, JSON.stringify(cdmCache));
  if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify(rows, null, 1));
  const corpus = rows.filter((r) => !r.error && !r.page.startsWith('synthetic') && r.theirs);
  const digits = (label: string) => (/recall|words|occ/.test(label) ? 3 : 0);
  /** One summary line over `set`: ours against `peer`, medians, p90s and the per-page ratio. */
  const reportOver = (set: Row[], peer: string, pad: number) => (label: string, pick: (r: Row) => number[]) => {
    const d = digits(label);
    const ours = stats(set.map((r) => pick(r)[0]));
    const theirs = stats(set.map((r) => pick(r)[1]));
    const ratio = stats(set.map((r) => pick(r)[0] / Math.max(pick(r)[1], 1e-9)));
    console.log(`${label.padEnd(pad)} ours median ${ours.median.toFixed(d)} p90 ${ours.p90.toFixed(d)} | ${peer} median ${theirs.median.toFixed(d)} p90 ${theirs.p90.toFixed(d)} | per-page ratio median ${ratio.median.toFixed(2)} p90 ${ratio.p90.toFixed(2)}`);
  };
  const report = reportOver(corpus, 'theirs', 10);
  if (MAX_TOKENS) console.log(`\nOur snapshot budget: ${MAX_TOKENS} tokens (BENCH_MAX_TOKENS)`);
  if (FOLD !== undefined) console.log(`\nOur text fold: after ${FOLD} tokens (BENCH_FOLD; 0 never folds)`);
  console.log(`\nCorpus (${dir}): ${corpus.length} pages compared (${rows.filter((r) => r.error).length} errors)`);
  if (corpus.length) {
    report('time', (r) => [r.ours.ms, r.theirs!.ms]);
    report('chars', (r) => [r.ours.chars, r.theirs!.chars]);
    report('tokens', (r) => [r.ours.tokens, r.theirs!.tokens]);
    report('recall', (r) => [r.ours.recall, r.theirs!.recall]);
    report('words', (r) => [r.ours.words, r.theirs!.words]);
    report('occ', (r) => [r.ours.occurrences, r.theirs!.occurrences]);
    report('words+cont', (r) => [r.ours.wordsAll, r.theirs!.words]);
    report('occ+cont', (r) => [r.ours.occurrencesAll, r.theirs!.occurrences]);
    const mean = (pick: (r: Row) => number) => (corpus.reduce((a, r) => a + pick(r), 0) / corpus.length).toFixed(3);
    report('tok whole', (r) => [r.ours.tokensAll, r.theirs!.tokens]);
    console.log(`first call at ≤ 0.4× their tokens: ${corpus.filter((r) => r.ours.tokens <= 0.4 * r.theirs!.tokens).length} of ${corpus.length} pages; text folded: ${corpus.filter((r) => r.folded).length}`);
    const withCdm = corpus.filter((r) => r.cdm);
    const cdmMean = withCdm.length ? (withCdm.reduce((a, r) => a + r.cdm!.recall, 0) / withCdm.length).toFixed(3) : '-';
    console.log(`recall mean: ours ${mean((r) => r.ours.recall)} (first call alone ${mean((r) => r.ours.recallFirst ?? 0)}), theirs ${mean((r) => r.theirs!.recall)}, chrome-devtools-mcp ${cdmMean} (${withCdm.length} of ${corpus.length} pages); pages continued: ${corpus.filter((r) => r.ours.parts > 1).length}; pages with words < 98%: ${corpus.filter((r) => r.ours.wordsAll < 0.98).map((r) => `${r.page} ${(r.ours.wordsAll * 100).toFixed(1)}%`).join(', ') || 'none'}`);
  }
  // chrome-devtools-mcp 1.11.0: the same figures over the corpus pages it answered ("cdm" labels; ours on the same pages).
  const cdmRows = rows.filter((r) => !r.error && !r.page.startsWith('synthetic') && r.cdm);
  const cdmFailed = rows.filter((r) => !r.error && !r.page.startsWith('synthetic') && !r.cdm);
  console.log(`\nchrome-devtools-mcp 1.11.0: ${cdmRows.length} corpus pages compared${cdmFailed.length ? `; none for ${cdmFailed.length}: ${cdmFailed.map((r) => `${r.page} (${r.cdmError})`).join(', ')}` : ''}`);
  if (cdmRows.length) {
    const reportCdm = reportOver(cdmRows, 'cdm', 14);
    reportCdm('cdm time', (r) => [r.ours.ms, r.cdm!.ms]);
    reportCdm('cdm chars', (r) => [r.ours.chars, r.cdm!.chars]);
    reportCdm('cdm tokens', (r) => [r.ours.tokens, r.cdm!.tokens]);
    reportCdm('cdm recall', (r) => [r.ours.recall, r.cdm!.recall]);
    reportCdm('cdm words', (r) => [r.ours.words, r.cdm!.words]);
    reportCdm('cdm occ', (r) => [r.ours.occurrences, r.cdm!.occurrences]);
    reportCdm('cdm words+cont', (r) => [r.ours.wordsAll, r.cdm!.words]);
    reportCdm('cdm tok whole', (r) => [r.ours.tokensAll, r.cdm!.tokens]);
    const m = (pick: (r: Row) => number) => (cdmRows.reduce((a, r) => a + pick(r), 0) / cdmRows.length).toFixed(3);
    console.log(`cdm recall mean: ours ${m((r) => r.ours.recall)} (first call alone ${m((r) => r.ours.recallFirst ?? 0)}), chrome-devtools-mcp ${m((r) => r.cdm!.recall)} over ${cdmRows.length} pages; first call at ≤ 0.4× its tokens: ${cdmRows.filter((r) => r.ours.tokens <= 0.4 * r.cdm!.tokens).length} of ${cdmRows.length} pages`);
  }
  console.log('\nSynthetic:');
  for (const r of rows.filter((x) => x.page.startsWith('synthetic') && !x.error)) {
    const n = Number(/(\d+)/.exec(r.page)![1]);
    const o = r.ours;
    console.log(
      `${n} elements: ours ${o.ms.toFixed(0)} ms, ${o.tokens} tokens in the first call${o.parts > 1 ? `, ${o.tokensAll} in all ${o.parts} parts of the whole read (fullText)` : ''} (${(o.tokensAll / n).toFixed(1)}/element), recall ${(o.recall * 100).toFixed(1)}%` +
        (r.theirs ? ` | theirs ${r.theirs.ms.toFixed(0)} ms, ${r.theirs.tokens} tokens (${(r.theirs.tokens / n).toFixed(1)}/element), recall ${(r.theirs.recall * 100).toFixed(1)}%` : '') +
        (r.cdm ? ` | chrome-devtools-mcp ${r.cdm.ms.toFixed(0)} ms, ${r.cdm.tokens} tokens (${(r.cdm.tokens / n).toFixed(1)}/element), recall ${(r.cdm.recall * 100).toFixed(1)}%` : ` | chrome-devtools-mcp - (${r.cdmError})`),
    );
  }
  if (theirsOk) await mcp.close().catch(() => {});
  if (cdmStarted) await cdm.close().catch(() => {});
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
