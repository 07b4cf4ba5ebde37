// Where focus is after a key (Tab, arrows in a menu, Escape closing one), named as the snapshot names it — with
// its ref when the snapshot gave it one — so the model can act on it without another snapshot.
import { fenceInline } from '../base/untrusted';
import type { Tab } from '../session/tab';
import { evalInFrame, mainFrame, parseRef, tabState } from '../snapshot/frames';
import { markShownRefs } from '../snapshot/shown';

/** In the main frame's snapshot world: the deep active element's ref id among `ids`, else a short description. */
const FOCUSED = `(ids) => {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  if (!a || a === document.body || a === document.documentElement) return null;
  const S = globalThis.__baSnap;
  const id = S ? ids.find((i) => S.get(i) === a) : undefined;
  if (id !== undefined) return { id };
  const text = (s) => (s || '').trim().replace(/\\s+/g, ' ').slice(0, 60);
  const name = text(a.getAttribute('aria-label')) || text(a.labels && a.labels[0] && a.labels[0].innerText) || text(a.innerText) || text(a.value) || text(a.placeholder) || text(a.title);
  return { what: (a.getAttribute('role') || a.localName), name };
}`;

/** `[5] textbox "Second"`, `iframe`, or '' when nothing has focus. */
export async function focusedName(tab: Tab): Promise<string> {
  const st = tabState(tab);
  const ids: number[] = [];
  for (const key of st.refs.keys()) {
    const p = parseRef(key);
    if (p && p.prefix === 0) ids.push(p.id);
  }
  const frame = await mainFrame(tab);
  const r = (await evalInFrame<{ id?: number; what?: string; name?: string } | null>(tab, frame, `(${FOCUSED})(${JSON.stringify(ids)})`)).value;
  if (!r) return '';
  if (r.id !== undefined) {
    const rec = st.refs.get(String(r.id))!;
    markShownRefs(tab, [String(r.id)]);
    return `[${r.id}] ${rec.role}${rec.name ? ` ${fenceInline(JSON.stringify(rec.name.slice(0, 80)))}` : ''}`;
  }
  return `${r.what}${r.name ? ` ${fenceInline(JSON.stringify(r.name))}` : ''}`;
}
