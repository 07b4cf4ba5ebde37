// Text the page keeps behind a control until it is opened: a closed <details>, a tab panel not selected, an
// accordion section (aria-controls on a collapsed control). The snapshot and find read what is shown, so a
// search for words that sit there found nothing and a model could conclude the page does not say them. Such
// text is searched here and named with the control that opens it.
import type { Tab } from '../session/tab';
import { evalInFrame, mainFrame, parseRef, refString, tabState } from './frames';
import { markShownRefs } from './shown';
import { pageCall, pageFns } from '../page/fn';
import byRefFns from '../page/byRef.ts?pagefn';

const byRefPage = pageFns<typeof import('../page/byRef')>(byRefFns);

/** Regions looked at, and characters read from each, at most (a page of hidden menus must stay cheap). */
const MAX_REGIONS = 200;
const MAX_CHARS = 4000;

export interface HiddenHit {
  /** The text around the match. */
  text: string;
  /** `[5] button "Is it waterproof?"`, or the control's description when the snapshot gave it no ref. */
  opener: string;
}

/** Hidden regions of the main frame whose text `match` accepts, each with the control that shows it. */
export async function hiddenMatches(
  tab: Tab,
  match: (s: string) => { at: number; len: number } | null,
  cut: (text: string, at: number, len: number) => string,
  shownAtMost: number,
): Promise<HiddenHit[]> {
  const st = tabState(tab);
  const ids: number[] = [];
  for (const key of st.refs.keys()) {
    const p = parseRef(key);
    if (p && p.prefix === 0) ids.push(p.id);
  }
  const frame = await mainFrame(tab);
  const regions = (await evalInFrame<Array<{ id?: number; opener: string; text: string }>>(tab, frame, pageCall(byRefPage.hiddenRegions, ids, MAX_REGIONS, MAX_CHARS))).value ?? [];
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
