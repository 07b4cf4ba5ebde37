// Text the page keeps behind a control until it is opened: a closed <details>, a tab panel not selected, an
// accordion section (aria-controls on a collapsed control). The snapshot and find read what is shown, so a
// search for words that sit there found nothing and a model could conclude the page does not say them. Such
// text is searched here and named with the control that opens it.
import type { Tab } from '../session/tab';
import { evalInFrame, mainFrame, parseRef, refString, tabState } from './frames';
import { markShownRefs } from './shown';

/** Regions looked at, and characters read from each, at most (a page of hidden menus must stay cheap). */
const MAX_REGIONS = 200;
const MAX_CHARS = 4000;

/** In the main frame's snapshot world: hidden regions with the control that opens each (its ref id when issued). */
const HIDDEN_REGIONS = `(ids, maxRegions, maxChars) => {
  const S = globalThis.__baSnap;
  const byEl = new Map();
  if (S) for (const i of ids) { const e = S.get(i); if (e) byEl.set(e, i); }
  const idOf = (el) => byEl.get(el);
  const shown = (e) => e.checkVisibility ? e.checkVisibility({ visibilityProperty: true }) : e.getClientRects().length > 0;
  const text = (e, skip) => { let s = ''; const w = document.createTreeWalker(e, NodeFilter.SHOW_TEXT); for (let n = w.nextNode(); n && s.length < maxChars; n = w.nextNode()) if (!skip || !skip.contains(n)) { const p = n.parentElement; if (p && /^(script|style|template)$/.test(p.localName)) continue; s += n.data + ' '; } return s.replace(/\\s+/g, ' ').trim(); };
  const name = (e) => (e.getAttribute('aria-label') || e.innerText || '').trim().replace(/\\s+/g, ' ').slice(0, 60);
  const out = [];
  const seen = new Set();
  for (const d of document.querySelectorAll('details:not([open])')) {
    if (out.length >= maxRegions) break;
    const summary = d.querySelector(':scope > summary');
    if (!summary || !shown(summary)) continue;
    seen.add(d);
    out.push({ id: idOf(summary), opener: name(summary), text: text(d, summary) });
  }
  for (const c of document.querySelectorAll('[aria-controls]')) {
    if (out.length >= maxRegions) break;
    if (!shown(c)) continue;
    for (const tid of (c.getAttribute('aria-controls') || '').split(/\\s+/).filter(Boolean)) {
      const t = document.getElementById(tid);
      if (!t || seen.has(t) || shown(t)) continue;
      seen.add(t);
      out.push({ id: idOf(c), opener: name(c), text: text(t) });
    }
  }
  return out.filter((r) => r.text);
}`;

export interface HiddenHit {
  /** The text around the match. */
  text: string;
  /** `[5] button "Is it waterproof?"`, or the control's description when the snapshot gave it no ref. */
  opener: string;
}

/** Hidden regions of the main frame whose text `match` accepts, each with the control that shows it. */
export async function hiddenMatches(tab: Tab, match: (s: string) => { at: number; len: number } | null, cut: (text: string, at: number, len: number) => string, shownAtMost: number): Promise<HiddenHit[]> {
  const st = tabState(tab);
  const ids: number[] = [];
  for (const key of st.refs.keys()) {
    const p = parseRef(key);
    if (p && p.prefix === 0) ids.push(p.id);
  }
  const frame = await mainFrame(tab);
  const regions = (await evalInFrame<Array<{ id?: number; opener: string; text: string }>>(tab, frame, `(${HIDDEN_REGIONS})(${JSON.stringify(ids)}, ${MAX_REGIONS}, ${MAX_CHARS})`)).value ?? [];
  const hits: HiddenHit[] = [];
  for (const r of regions) {
    const m = match(r.text);
    if (!m) continue;
    const rec = r.id !== undefined ? st.refs.get(refString(0, r.id)) : undefined;
    if (rec && hits.length < shownAtMost) markShownRefs(tab, [refString(0, r.id!)]);
    hits.push({ text: cut(r.text, m.at, m.len), opener: rec ? `[${r.id}] ${rec.role}${rec.name ? ` ${JSON.stringify(rec.name)}` : ''}` : `the control "${r.opener}" (no ref: take a browser_snapshot)` });
  }
  return hits;
}
