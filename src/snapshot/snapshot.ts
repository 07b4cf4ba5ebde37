// The public snapshot layers: summary, elements (with scope and budget), details, find, delta.
import type { Tab } from '../session/tab';
import { clip, fenceUrl } from '../safety/untrusted';
import { BrowserAgentError } from '../errors';
import { extractFrame, evalInFrame, mainFrame, parseRef, refString, tabState, type FrameRef, type FrameResult, type TabState } from './frames';
import { flatten, untrusted, type Line } from './format';
import { DEFAULT_FOLD_TEXT_AFTER, DEFAULT_MAX_TOKENS, WRAP_CHARS, continuationNote, estimateTokens, foldNote, foldPoint, offsetNote, takePage, wrapLine, type BudgetLine } from './budget';
import type { DetailsResult, SummaryResult } from './protocol';
import { addedText, shownBriefly, textCounts } from './textDelta';

/** A title is one line the token budget cannot cut; a page can set a megabyte one. */
const cutTitle = (title: string) => clip(title, 300);

export interface SnapshotOptions {
  layer?: 'summary' | 'elements';
  viewportOnly?: boolean;
  /** Subtree: only this element and what it contains. */
  ref?: string;
  /** Token budget for the whole result (o200k estimate); default DEFAULT_MAX_TOKENS. */
  maxTokens?: number;
  /** Read on from this line (the number a cut snapshot names). */
  offset?: number;
  /** All page text; otherwise text past `foldTextAfter` tokens of a long page is folded (elements never are). */
  fullText?: boolean;
  /** Tokens of the page shown before its text is folded (default DEFAULT_FOLD_TEXT_AFTER; 0 never folds). */
  foldTextAfter?: number;
}

/** A heading line of the page text (`## Reviews`): kept when the text around it is folded, as an outline. */
const HEADING = /^#{1,6} /;

const LEGEND = 'Lines [ref] role "name" state →link target; [nav] etc. open sections; other lines: page text.';

export async function takeSnapshot(tab: Tab, opts: SnapshotOptions = {}): Promise<string> {
  tab.assertNoDialog();
  if (opts.maxTokens !== undefined && (!Number.isFinite(opts.maxTokens) || opts.maxTokens < 50)) {
    throw new BrowserAgentError('INVALID_INPUT', `maxTokens must be a number of at least 50 (got ${opts.maxTokens}).`, 'Omit maxTokens for the default budget, or give e.g. 4000.');
  }
  if (opts.foldTextAfter !== undefined && (!Number.isFinite(opts.foldTextAfter) || opts.foldTextAfter < 0)) {
    throw new BrowserAgentError('INVALID_INPUT', `foldTextAfter must be a number of at least 0 (got ${opts.foldTextAfter}).`, 'Omit it for the default, or give 0 to never fold the page text.');
  }
  if (opts.offset !== undefined && (!Number.isInteger(opts.offset) || opts.offset < 0)) {
    throw new BrowserAgentError('INVALID_INPUT', `offset must be a whole number of at least 0 (got ${opts.offset}).`, 'Use the offset a cut snapshot names, e.g. offset=812.');
  }
  if (opts.layer === 'summary') return summaryLayer(tab);
  if (opts.layer !== undefined && opts.layer !== 'elements') {
    throw new BrowserAgentError('INVALID_INPUT', `Unknown snapshot layer "${opts.layer}".`, 'Use "summary" or "elements"; details come from browser_element_details.');
  }
  const { result, lines } = await readLines(tab, opts);
  const wrapped = wrapLines(lines);
  if (opts.offset && opts.offset >= wrapped.length) {
    throw new BrowserAgentError('INVALID_INPUT', `offset=${opts.offset} is past the end: the page has ${wrapped.length} lines now.`, 'Take browser_snapshot without offset; the page may have changed.');
  }
  const maxTokens = opts.maxTokens ?? DEFAULT_MAX_TOKENS;
  const header = [`URL: ${fenceUrl(result.url)}`];
  const scope = opts.ref ? ` inside [${opts.ref}]` : opts.viewportOnly ? ' in the viewport' : '';
  const count = lines.filter((l) => l.kind === 'element').length;
  header.push(`${count} interactive elements${scope}. ${LEGEND}`);
  const title = `Title: ${cutTitle(result.title)}`;
  const reserve = estimateTokens(header.join('\n') + title) + 80;
  const budgetLines: BudgetLine[] = wrapped.map((l) => ({ text: l.text, element: l.kind === 'element', foldable: l.kind === 'text' && !HEADING.test(l.text) }));
  // Only a first look at the whole page folds: reading on, a subtree and the viewport show all their text.
  const folds = !opts.fullText && !opts.offset && !opts.ref && !opts.viewportOnly;
  const fold = folds ? foldPoint(budgetLines, opts.foldTextAfter ?? DEFAULT_FOLD_TEXT_AFTER) : undefined;
  const page = takePage(budgetLines, Math.max(1, maxTokens - reserve), opts.offset ?? 0, fold);
  const from = offsetNote(page);
  if (from) header.push(from);
  const again = (opts.ref ? `, ref="${opts.ref}"` : '') + (opts.viewportOnly ? ', viewportOnly=true' : '') + (opts.maxTokens ? `, maxTokens=${opts.maxTokens}` : '');
  const folded = foldNote(page, opts.maxTokens ? `, maxTokens=${opts.maxTokens}` : '');
  const note = continuationNote(page, maxTokens, again);
  const briefly = opts.ref || opts.viewportOnly ? undefined : await shownBriefly(tab, lines);
  const top = page.from ? '' : title + (briefly ? `\n${briefly}` : '') + (page.body ? '\n' : '');
  const out = [...header, untrusted(top + page.body)];
  if (folded) out.push(folded);
  if (note) out.push(note);
  return out.join('\n');
}

/** The lines of the last elements snapshot per tab and scope, for reading on from an offset. */
const lastRead = new WeakMap<Tab, { scope: string; result: FrameResult; lines: Line[] }>();

/**
 * The page's lines: reading on (an offset) reuses the previous snapshot's lines when no frame of it saw a
 * DOM change since (one extraction per read of a huge page, and offsets that mean the same lines).
 */
async function readLines(tab: Tab, opts: SnapshotOptions): Promise<{ result: FrameResult; lines: Line[] }> {
  const scope = JSON.stringify([opts.ref ?? '', !!opts.viewportOnly]);
  const last = lastRead.get(tab);
  if (opts.offset && last && last.scope === scope && (await unchanged(tab, last.result))) return last;
  const read = await elementsFor(tab, opts);
  lastRead.set(tab, { scope, ...read });
  return read;
}

async function unchanged(tab: Tab, r: FrameResult): Promise<boolean> {
  const frames: FrameResult[] = [];
  const walk = (f: FrameResult) => {
    frames.push(f);
    for (const c of f.children.values()) if (!('frameError' in c)) walk(c);
  };
  walk(r);
  const now = await Promise.all(frames.map((f) => evalInFrame<string>(tab, f.frame, 'globalThis.__baChanges()').then((v) => v.value, () => undefined)));
  return frames.every((f, i) => f.changes !== undefined && now[i] === f.changes);
}

/** Lines with long paragraphs wrapped, so that every offset means the same line on every call. */
export function wrapLines(lines: Line[]): Line[] {
  const out: Line[] = [];
  for (const l of lines) {
    if (l.kind !== 'text' || l.text.length <= WRAP_CHARS) out.push(l);
    else for (const piece of wrapLine(l.text)) out.push({ kind: 'text', text: piece });
  }
  return out;
}

/** Runs the extractor over the requested scope and remembers refs (and, for full snapshots, the delta baseline). */
export async function elementsFor(tab: Tab, opts: { viewportOnly?: boolean; ref?: string } = {}): Promise<{ result: FrameResult; lines: Line[] }> {
  const st = tabState(tab);
  let frame: FrameRef = await mainFrame(tab);
  let root: number | undefined;
  if (opts.ref) {
    const p = parseRef(opts.ref);
    const rec = p && st.refs.get(refString(p.prefix, p.id));
    if (!p || !rec) throw notIssued(opts.ref);
    const f = st.framesByPrefix.get(p.prefix);
    if (!f) throw new BrowserAgentError('STALE_REF', `Ref ${opts.ref} (${rec.role} "${rec.name}") belonged to a frame that is gone.`, 'Take a new snapshot.');
    frame = f;
    root = p.id;
  }
  const result = await extractFrame(tab, frame, { viewportOnly: opts.viewportOnly, root });
  const lines = flatten(result);
  remember(st, lines);
  if (!opts.ref && !opts.viewportOnly) {
    st.last = { url: result.url, title: result.title, doc: result.doc, lines: new Map(lines.filter((l) => l.ref).map((l) => [l.ref!, l.text])), texts: textCounts(lines) };
  }
  return { result, lines };
}

function remember(st: TabState, lines: Line[]) {
  for (const l of lines) {
    if (!l.ref) continue;
    st.refs.set(l.ref, { role: l.role!, name: l.name!, prefix: l.prefix ?? 0, line: l.text });
  }
  // Bound the memory of long sessions: keep the most recent refs.
  if (st.refs.size > 200_000) {
    const drop = st.refs.size - 150_000;
    let i = 0;
    for (const k of st.refs.keys()) {
      if (i++ >= drop) break;
      st.refs.delete(k);
    }
  }
}

export function notIssued(ref: string): BrowserAgentError {
  return new BrowserAgentError('TARGET_NOT_FOUND', `No element with ref "${ref}" was ever shown on this tab.`, 'Refs look like 12 or f2:5 and come from browser_snapshot or browser_find on this tab; take a snapshot and use a ref from it.');
}

async function summaryLayer(tab: Tab): Promise<string> {
  const frame = await mainFrame(tab);
  const { value: s } = await evalInFrame<SummaryResult>(tab, frame, 'globalThis.__baSnap.summary()');
  const c = s.counts;
  const lines = [
    `URL: ${fenceUrl(s.url)}`,
    `Viewport ${s.viewport[0]}x${s.viewport[1]}, scrolled to ${s.scroll[0]},${s.scroll[1]} of ${s.size[0]}x${s.size[1]}`,
    `Counts: ${c.links} links, ${c.buttons} buttons, ${c.inputs} inputs, ${c.selects} selects, ${c.forms} forms, ${c.images} images, ${c.iframes} iframes`,
  ];
  const inside = [`Title: ${cutTitle(s.title)}`];
  if (s.focused) inside.push(`Focused: ${s.focused}`);
  if (s.dialog) inside.push(`Open dialog: ${s.dialog}`);
  if (s.text) inside.push(`Text: ${s.text}${s.text.length >= 400 ? '…' : ''}`);
  lines.push(untrusted(inside.join('\n')));
  lines.push('For every element with refs: browser_snapshot with layer "elements".');
  return lines.join('\n');
}

/** Attributes, unique selector, XPath, box, parent text, child count and href of each ref. */
export async function elementDetails(tab: Tab, refs: string[]): Promise<string> {
  tab.assertNoDialog();
  if (!refs.length) throw new BrowserAgentError('INVALID_INPUT', 'No refs given.', 'Pass one or more refs from a snapshot, e.g. ["12", "f2:5"].');
  const st = tabState(tab);
  const byFrame = new Map<number, number[]>();
  for (const r of refs) {
    const p = parseRef(r);
    if (!p || !st.refs.has(refString(p.prefix, p.id))) throw notIssued(r);
    byFrame.set(p.prefix, [...(byFrame.get(p.prefix) ?? []), p.id]);
  }
  const found = new Map<string, DetailsResult | undefined>();
  for (const [prefix, ids] of byFrame) {
    const frame = prefix === 0 ? await mainFrame(tab) : st.framesByPrefix.get(prefix);
    let res: DetailsResult[] = [];
    if (frame) res = (await evalInFrame<DetailsResult[]>(tab, frame, `globalThis.__baSnap.details(${JSON.stringify(ids)})`).catch(() => ({ value: [] as DetailsResult[] }))).value;
    for (const id of ids) found.set(refString(prefix, id), res.find((d) => d.id === id));
  }
  const out: string[] = [];
  for (const r of refs) {
    const p = parseRef(r)!;
    const key = refString(p.prefix, p.id);
    const rec = st.refs.get(key)!;
    const d = found.get(key);
    if (!d || d.missing) {
      out.push(`[${key}] ${rec.role} ${JSON.stringify(rec.name)}: gone from the page (STALE_REF); take a new snapshot.`);
      continue;
    }
    const attrs = Object.entries(d.attrs ?? {}).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ');
    out.push(
      [
        rec.line,
        `  tag: ${d.tag}${d.shadowHost ? ` (in the shadow root of ${d.shadowHost})` : ''}`,
        `  selector: ${d.selector}`,
        `  xpath: ${d.xpath}`,
        `  bbox: x=${d.bbox![0]} y=${d.bbox![1]} w=${d.bbox![2]} h=${d.bbox![3]} (page coordinates, CSS px)`,
        attrs ? `  attributes: ${attrs}` : '  attributes: none',
        d.href ? `  href: ${d.href}` : '',
        d.text ? `  text: ${JSON.stringify(d.text)}` : '',
        d.value !== undefined ? `  value (${d.value.length} chars, whole): ${JSON.stringify(d.value)}` : '',
        `  parent text: ${JSON.stringify(d.parentText ?? '')}`,
        `  children: ${d.children}`,
      ].filter(Boolean).join('\n'),
    );
  }
  return untrusted(out.join('\n'));
}

const MAX_DELTA_LINES = 25;

/** What changed since the last full snapshot: URL/title, elements added, removed, changed. Becomes the new baseline. */
export async function snapshotDelta(tab: Tab): Promise<string> {
  tab.assertNoDialog();
  const st = tabState(tab);
  let before = st.last;
  const { result, lines } = await elementsFor(tab);
  const now = st.last!;
  // Another document numbers its refs afresh: nothing of the old one carries over, everything is new.
  const newDocument = !!before && before.doc !== now.doc;
  if (before && newDocument) before = { ...before, lines: new Map() };
  const count = lines.filter((l) => l.kind === 'element').length;
  if (!before) return `Page: ${fenceUrl(result.url)} (${count} interactive elements; browser_snapshot shows them).`;
  const out: string[] = [];
  const page: string[] = [];
  if (before.url !== now.url) out.push(`URL: ${fenceUrl(before.url)} → ${fenceUrl(now.url)}`);
  if (before.title !== now.title) page.push(`Title: ${JSON.stringify(cutTitle(before.title))} → ${JSON.stringify(cutTitle(now.title))}`);
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  for (const [ref, line] of now.lines) {
    const old = before.lines.get(ref);
    if (old === undefined) added.push(`+ ${line}`);
    else if (old !== line) changed.push(`~ ${line} (was: ${old.replace(/^\[[^\]]+\]\s*/, '')})`);
  }
  for (const [ref, line] of before.lines) if (!now.lines.has(ref)) removed.push(`- ${line}`);
  // Text that appeared on the same page (an error message, a toast); a new page's text is the snapshot's.
  const navigated = newDocument || (before.url !== now.url && removed.length > 0 && added.length > 0 && !changed.length);
  const text = navigated || !before.texts ? [] : addedText(before.texts, now.texts ?? new Map());
  const briefly = await shownBriefly(tab, lines);
  if (briefly) text.push(briefly);
  if (!added.length && !changed.length && !removed.length && !out.length && !page.length && !text.length) return 'No change on the page since the last snapshot.';
  const list = [...changed, ...added, ...removed];
  const shown = list.slice(0, MAX_DELTA_LINES);
  page.push(...text, ...shown);
  if (list.length > shown.length) page.push(`… ${list.length - shown.length} more changes (browser_snapshot for the full page)`);
  out.push(`${navigated ? 'New page' : 'Changes'}: ${added.length} added, ${removed.length} removed, ${changed.length} changed; ${count} elements now.`);
  out.push(untrusted(page.join('\n')));
  return out.join('\n');
}
