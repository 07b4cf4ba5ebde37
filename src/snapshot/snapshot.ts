// The public snapshot layers: summary, elements (with scope and budget), details, find, delta.
import type { Tab } from '../session/tab';
import { clip, type ResultParts } from '../base/untrusted';
import { BrowserAgentError } from '../base/errors';
import { pageCall, pageFns } from '../page/fn';
import snapshotWorldFns from '../page/snapshotWorld.ts?pagefn';

/** Calls into the frame's snapshot world. */
const worldPage = pageFns<typeof import('../page/snapshotWorld')>(snapshotWorldFns);
import { extractFrame, evalInFrame, mainFrame, tabState, type FrameRef, type FrameResult, type TabState } from './frames';
import { markShown, OTHER_DOCUMENT, otherDocumentError, shownRef, type ShownRef } from './shown';
import { flatten, untrusted, type Line } from './format';
import { DEFAULT_FOLD_TEXT_AFTER, DEFAULT_MAX_TOKENS, WRAP_CHARS, continuationNote, estimateTokens, foldNote, foldPoint, offsetNote, takePage, wrapLine, type BudgetLine } from './budget';
import type { DetailsResult, SummaryResult } from '../page/protocol';
import { addedText, shownBriefly, textCounts } from './textDelta';
import { changeLine } from './lineChange';
import { ignore } from '../base/ignore';

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

/** Longest page URL a snapshot shows (a page can make its own megabytes long); browser_tabs has no cap. */
const MAX_URL = 2000;

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
  // The reading guide (`[ref] role "name" state`, `→target`, `[nav]`) is in the tool's description, once per session.
  const scope = opts.ref ? ` inside [${opts.ref}]` : opts.viewportOnly ? ' in the viewport' : '';
  const count = lines.filter((l) => l.kind === 'element').length;
  const header = [`${count} interactive elements${scope}.`];
  const url = `URL: ${clip(result.url, MAX_URL)}`;
  const title = `Title: ${cutTitle(result.title)}`;
  const reserve = estimateTokens(header.join('\n') + url + title) + 80;
  const budgetLines: BudgetLine[] = wrapped.map((l) => ({ text: l.text, element: l.kind === 'element', foldable: l.kind === 'text' && !HEADING.test(l.text) }));
  // Only a first look at the whole page folds: reading on, a subtree and the viewport show all their text.
  const folds = !opts.fullText && !opts.offset && !opts.ref && !opts.viewportOnly;
  const fold = folds ? foldPoint(budgetLines, opts.foldTextAfter ?? DEFAULT_FOLD_TEXT_AFTER) : undefined;
  const page = takePage(budgetLines, Math.max(1, maxTokens - reserve), opts.offset ?? 0, fold);
  markShown(tab, wrapped.slice(page.from, page.to)); // elements never fold: every one up to the cut is on the page
  const from = offsetNote(page);
  if (from) header.push(from);
  const again = (opts.ref ? `, ref="${opts.ref}"` : '') + (opts.viewportOnly ? ', viewportOnly=true' : '') + (opts.maxTokens ? `, maxTokens=${opts.maxTokens}` : '');
  const folded = foldNote(page, opts.maxTokens ? `, maxTokens=${opts.maxTokens}` : '');
  const note = continuationNote(page, maxTokens, again);
  const briefly = opts.ref || opts.viewportOnly ? undefined : await shownBriefly(tab, lines);
  const top = page.from ? '' : `${url}\n${title}` + (briefly ? `\n${briefly}` : '') + (page.body ? '\n' : '');
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
  const now = await Promise.all(frames.map((f) => evalInFrame<string>(tab, f.frame, pageCall(worldPage.changes)).then((v) => v.value, () => undefined)));
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
  let rootDoc: string | undefined;
  if (opts.ref) {
    const s = shownRef(tab, opts.ref);
    const f = st.framesByPrefix.get(s.prefix);
    if (!f) throw new BrowserAgentError('STALE_REF', `Ref ${opts.ref} (${s.rec.role} "${s.rec.name}") belonged to a frame that is gone.`, 'Take a new snapshot.');
    if (s.rec.from) throw otherDocumentError(s);
    frame = f;
    root = s.id;
    rootDoc = s.rec.doc ?? '';
  }
  const result = await extractFrame(tab, frame, { viewportOnly: opts.viewportOnly, root, rootDoc });
  if (result.otherDocument) throw otherDocumentError(shownRef(tab, opts.ref!));
  const lines = flatten(result);
  remember(st, lines);
  if (!opts.ref && !opts.viewportOnly) {
    st.last = { url: result.url, title: result.title, doc: result.doc, frameDocs: frameDocs(result), lines: new Map(lines.filter((l) => l.ref).map((l) => [l.ref!, l])), texts: textCounts(lines) };
  }
  return { result, lines };
}

/** The document of each frame read, by ref prefix. */
function frameDocs(r: FrameResult, out = new Map<number, string>()): Map<number, string> {
  if (r.doc) out.set(r.frame.prefix, r.doc);
  for (const c of r.children.values()) if (!('frameError' in c)) frameDocs(c, out);
  return out;
}

function remember(st: TabState, lines: Line[]) {
  for (const l of lines) {
    if (!l.ref) continue;
    st.refs.set(l.ref, { role: l.role!, name: l.name!, prefix: l.prefix ?? 0, line: l.text, doc: l.doc });
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

async function summaryLayer(tab: Tab): Promise<string> {
  const frame = await mainFrame(tab);
  const { value: s } = await evalInFrame<SummaryResult>(tab, frame, pageCall(worldPage.summary));
  const c = s.counts;
  const lines = [
    `Viewport ${s.viewport[0]}x${s.viewport[1]}, scrolled to ${s.scroll[0]},${s.scroll[1]} of ${s.size[0]}x${s.size[1]}`,
    `Counts: ${c.links} links, ${c.buttons} buttons, ${c.inputs} inputs, ${c.selects} selects, ${c.forms} forms, ${c.images} images, ${c.iframes} iframes`,
  ];
  const inside = [`URL: ${clip(s.url, MAX_URL)}`, `Title: ${cutTitle(s.title)}`];
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
  const shown = refs.map((r) => shownRef(tab, r));
  // Per frame and document: a ref shown on an earlier page of its frame names nothing now (STALE_REF, nothing read).
  const groups = new Map<string, ShownRef[]>();
  for (const s of shown) {
    const k = JSON.stringify([s.prefix, s.rec.doc ?? '']);
    groups.set(k, [...(groups.get(k) ?? []), s]);
  }
  const found = new Map<string, DetailsResult | undefined>();
  for (const group of groups.values()) {
    const { prefix, rec } = group[0];
    const frame = prefix === 0 ? await mainFrame(tab) : tabState(tab).framesByPrefix.get(prefix);
    let res: DetailsResult[] | string = [];
    if (frame) res = (await evalInFrame<DetailsResult[] | string>(tab, frame, pageCall(worldPage.detailsIn, rec.doc ?? '', group.map((s) => s.id))).catch((e) => ignore(e, 'the frame does not answer: no details', { value: [] as DetailsResult[] }))).value;
    if (res === OTHER_DOCUMENT || group.some((s) => s.rec.from)) throw otherDocumentError(group.find((s) => s.rec.from) ?? group[0]);
    for (const s of group) found.set(s.key, Array.isArray(res) ? res.find((d) => d.id === s.id) : undefined);
  }
  const out: string[] = [];
  for (const { key, rec } of shown) {
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

/** A line of a delta and, for an added or changed element, the ref it shows. */
interface DeltaLine {
  text: string;
  ref?: string;
}

export const NO_CHANGE = 'No change on the page.';

export interface Delta extends ResultParts {
  /** The main document is another one: its refs are the snapshot's to show. */
  newDocument: boolean;
}

/**
 * What changed since the last look, said once: elements added (whole line), changed (`~ [4] "Username"
 * value="ada"`: only what changed; a focus move alone is none) and removed (`- [9] button "Send"`), text that
 * appeared. `said` is the action's own line: a value it already quotes for its target is not repeated. The URL
 * and title are the caller's to name. Becomes the new baseline.
 */
export async function snapshotDelta(tab: Tab, said?: { ref?: string; text: string }): Promise<Delta> {
  tab.assertNoDialog();
  const st = tabState(tab);
  let before = st.last;
  const { lines } = await elementsFor(tab);
  const now = st.last!;
  const count = lines.filter((l) => l.kind === 'element').length;
  if (!before) return { said: [`${count} interactive elements; browser_snapshot shows them.`], page: [], newDocument: true };
  const page: string[] = [];
  // Another document numbers its refs afresh, so no line of it is listed: the model sees its refs in a snapshot,
  // and a ref it kept from before meets STALE_REF instead of whatever holds that number here.
  if (before.doc !== now.doc) {
    const briefly = await shownBriefly(tab, lines);
    return { said: [count ? `New page: ${count} interactive elements; browser_snapshot shows their refs.` : 'New page: no interactive elements.'], page: briefly ? [briefly] : [], newDocument: true };
  }
  // Likewise a frame that loaded another document while the page stayed.
  const saidLines: string[] = [];
  const reloaded = new Set([...(now.frameDocs ?? [])].filter(([p, doc]) => p !== 0 && before!.frameDocs?.has(p) && before!.frameDocs.get(p) !== doc).map(([p]) => p));
  const prefixOf = (ref: string) => (ref.startsWith('f') ? Number(ref.slice(1, ref.indexOf(':'))) : 0);
  for (const p of reloaded) saidLines.push(`Frame f${p} loaded another page: ${lines.filter((l) => l.kind === 'element' && l.prefix === p).length} interactive elements; browser_snapshot shows their refs.`);
  const sameDoc = <T>(m: Map<string, T>) => new Map([...m].filter(([ref]) => !reloaded.has(prefixOf(ref))));
  before = { ...before, lines: sameDoc(before.lines) };
  const nowLines = sameDoc(now.lines);
  // Each line printed with the ref it shows (none for removed ones: they are gone).
  const added: DeltaLine[] = [];
  const changed: DeltaLine[] = [];
  const removed: DeltaLine[] = [];
  // Lines that differ only by focus, or by what the action's own line already says: a change, but not one to repeat.
  let unsaid = 0;
  for (const [ref, line] of nowLines) {
    const old = before.lines.get(ref);
    if (old === undefined) added.push({ text: `+ ${line.text}`, ref });
    else if (old.text !== line.text) {
      unsaid++;
      const change = old.parts && line.parts ? changeLine(ref, old.parts, line.parts, ref === said?.ref ? said.text : undefined) : `~ ${line.text}`;
      if (change) {
        changed.push({ text: change, ref });
        unsaid--;
      }
    }
  }
  for (const [, line] of before.lines) if (!nowLines.has(line.ref!)) removed.push({ text: `- ${line.parts?.head ?? line.text}` });
  // Text that appeared on the same page (an error message, a toast); a new route's text is the snapshot's.
  const navigated = before.url !== now.url && removed.length > 0 && added.length > 0 && !changed.length;
  const text = navigated || !before.texts ? [] : addedText(before.texts, now.texts ?? new Map());
  const briefly = await shownBriefly(tab, lines);
  if (briefly) text.push(briefly);
  const list = [...changed, ...added, ...removed];
  if (!list.length && !text.length && !saidLines.length) return { said: unsaid ? [] : [NO_CHANGE], page: [], newDocument: false };
  const shown = list.slice(0, MAX_DELTA_LINES);
  // The refs of the changed and added lines printed are now shown to the model (removed ones are gone).
  const printed = new Set(shown.map((d) => d.ref));
  markShown(tab, lines.filter((l) => l.ref && printed.has(l.ref)));
  page.push(...text, ...shown.map((d) => d.text));
  if (list.length > shown.length) saidLines.push(`${list.length - shown.length} more changes: browser_snapshot shows the whole page.`);
  return { said: saidLines, page, newDocument: false };
}
