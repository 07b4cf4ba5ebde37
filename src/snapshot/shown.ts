// The refs the model was shown. Refs are numbered per document, so after a navigation, a reload or an iframe
// loading another page, "ref 2" names a different element: a ref the model kept from before must fail, never
// act on whatever holds its number now. Each ref a result shows (snapshot, find, delta, focus and cover names)
// is kept with its frame's document, and an action may use it only while that document is the frame's.
import type { Tab } from '../session/tab';
import { BrowserAgentError } from '../base/errors';
import { parseRef, refString, tabState, type RefRecord } from './frames';
import type { Line } from './format';

/** Shown refs kept per tab: the most recent ones of a long session. */
const MAX_SHOWN = 100_000;
const KEEP_SHOWN = 75_000;

/** Records the element lines a result shows to the model, each with the document its ref was issued in. */
export function markShown(tab: Tab, lines: Iterable<Line>): void {
  const st = tabState(tab);
  for (const l of lines) {
    if (l.kind !== 'element' || !l.ref) continue;
    st.shown.delete(l.ref); // re-inserted last: the map's order is how recently a ref was shown
    st.shown.set(l.ref, { role: l.role ?? '', name: l.name ?? '', prefix: l.prefix ?? 0, line: l.text, doc: l.doc });
  }
  if (st.shown.size > MAX_SHOWN) {
    let drop = st.shown.size - KEEP_SHOWN;
    for (const k of st.shown.keys()) {
      if (drop-- <= 0) break;
      st.shown.delete(k);
    }
  }
}

/** Records refs a result names by their issued records (the focused element, a cover's controls, a closed part's opener). */
export function markShownRefs(tab: Tab, keys: Iterable<string>): void {
  const st = tabState(tab);
  const lines: Line[] = [];
  for (const key of keys) {
    const rec = st.refs.get(key);
    if (rec) lines.push({ kind: 'element', text: rec.line, ref: key, prefix: rec.prefix, role: rec.role, name: rec.name, doc: rec.doc });
  }
  markShown(tab, lines);
}

export interface ShownRef {
  key: string;
  prefix: number;
  id: number;
  rec: RefRecord;
}

/** The record of a ref as the model wrote it; TARGET_NOT_FOUND when this tab never showed it. */
export function shownRef(tab: Tab, ref: string): ShownRef {
  const p = parseRef(String(ref));
  const key = p ? refString(p.prefix, p.id) : String(ref);
  const rec = p && tabState(tab).shown.get(key);
  if (!p || !rec) throw notShown(String(ref));
  return { key, prefix: p.prefix, id: p.id, rec };
}

/** Errors that refuse a ref for the page it is used on (never shown here, or shown on another document). */
const refused = new WeakSet<BrowserAgentError>();
const refuse = (e: BrowserAgentError) => (refused.add(e), e);

/** True for a ref refused for this page, as against an element of this page that is gone (a wait for it to go is met). */
export function isRefusedRef(e: unknown): boolean {
  return e instanceof BrowserAgentError && refused.has(e);
}

export function notShown(ref: string): BrowserAgentError {
  return refuse(new BrowserAgentError('TARGET_NOT_FOUND', `No element with ref "${ref}" was shown on this tab.`, 'Refs look like 12 or f2:5 and come from browser_snapshot or browser_find on this tab; take a snapshot and use a ref from it.'));
}

/** What an in-page check answers when the frame holds another document than the ref's (page/snapshotWorld.ts: getIn…). */
export { OTHER_DOCUMENT } from '../page/snapshotWorld';

/** STALE_REF for a ref shown in an earlier document of its frame (or on a tab or browser that is gone). */
export function otherDocumentError(s: Pick<ShownRef, 'key' | 'rec'>, closestMatch = ''): BrowserAgentError {
  const { key, rec } = s;
  const where = rec.from ?? (rec.prefix ? `in frame f${rec.prefix} before it loaded another page` : 'on the previous page');
  return refuse(new BrowserAgentError(
    'STALE_REF',
    `Ref ${key} (${was(rec)}) is no longer on the page. It was shown ${where}; this is another document, so the ref names nothing here and nothing was done.${closestMatch ? ` Closest current match: ${closestMatch}` : ''}`,
    closestMatch ? 'Use the new ref if it is the element you mean, or take a browser_snapshot of this page.' : 'Take a browser_snapshot of this page (or browser_find) and use a ref from it.',
  ));
}

/** `button "Cancel"`: the element a record was, as results name it. */
export function was(rec: Pick<RefRecord, 'role' | 'name'>): string {
  return rec.name ? `${rec.role} ${JSON.stringify(rec.name.length > 80 ? `${rec.name.slice(0, 77)}…` : rec.name)}` : rec.role;
}
