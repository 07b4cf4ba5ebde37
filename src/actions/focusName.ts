// Where focus is after a key (Tab, arrows in a menu, Escape closing one), named as the snapshot names it — with
// its ref when the snapshot gave it one — so the model can act on it without another snapshot.
import { fenceInline } from '../base/untrusted';
import type { Tab } from '../session/tab';
import { evalInFrame, mainFrame, parseRef, tabState } from '../snapshot/frames';
import { markShownRefs } from '../snapshot/shown';
import { pageCall, pageFns } from '../page/fn';
import byRefFns from '../page/byRef.ts?pagefn';

const byRefPage = pageFns<typeof import('../page/byRef')>(byRefFns);

/** `[5] textbox "Second"`, `iframe`, or '' when nothing has focus. */
export async function focusedName(tab: Tab): Promise<string> {
  const st = tabState(tab);
  const ids: number[] = [];
  for (const key of st.refs.keys()) {
    const p = parseRef(key);
    if (p && p.prefix === 0) ids.push(p.id);
  }
  const frame = await mainFrame(tab);
  const r = (await evalInFrame<{ id?: number; what?: string; name?: string } | null>(tab, frame, pageCall(byRefPage.focusedRef, ids))).value;
  if (!r) return '';
  if (r.id !== undefined) {
    const rec = st.refs.get(String(r.id))!;
    markShownRefs(tab, [String(r.id)]);
    return `[${r.id}] ${rec.role}${rec.name ? ` ${fenceInline(JSON.stringify(rec.name.slice(0, 80)))}` : ''}`;
  }
  return `${r.what}${r.name ? ` ${fenceInline(JSON.stringify(r.name))}` : ''}`;
}
