// What keeps an element from being acted on, in words a model can act on: why a button is disabled (in the
// page's own words when it gives them), and which controls of the overlay covering it would dismiss it. Both run
// only on the error path, so actions that succeed pay nothing for them.
import { ignore } from '../base/ignore';
import { clip, fenceInline } from '../base/untrusted';
import { evalInFrame, mainFrame, parseRef, refString, tabState, type FrameRef } from '../snapshot/frames';
import { markShownRefs } from '../snapshot/shown';
import type { Tab } from '../session/tab';
import type { ElementHandle } from '../snapshot/types';
import { callOnElement } from './element';
import { pageCall, pageFns } from '../page/fn';
import byRefFns from '../page/byRef.ts?pagefn';

const byRefPage = pageFns<typeof import('../page/byRef')>(byRefFns);
import fieldsFns from '../page/actions/fields.ts?pagefn';

const fieldsPage = pageFns<typeof import('../page/actions/fields')>(fieldsFns);

/** Why the page disabled the element, as the sentence added to "is disabled": the page's reason, or the form's fields still to fill. */
export async function disabledReason(h: ElementHandle): Promise<string> {
  const r = await callOnElement<{ said?: string; fields?: string[]; more?: number } | null>(h, fieldsPage.disabledReason).catch((e) => ignore(e, 'the element may be gone; "is disabled" stands without a reason', null));
  if (r?.said) return ` The page says: ${fenceInline(clip(r.said, 300))}`;
  if (r?.fields?.length) return ` Fields of its form not valid yet: ${fenceInline(r.fields.map((f) => clip(f, 120)).join('; '))}${r.more ? ` (and ${r.more} more)` : ''}.`;
  return '';
}

/** Controls named in a COVERED error at most. */
const MAX_CONTROLS = 6;

/** " Inside it: [2] button "Accept all", …" for a COVERED error, or '' when the cover holds no control. */
export async function coverControls(tab: Tab, h: ElementHandle): Promise<string> {
  const p = parseRef(h.ref);
  if (!p) return '';
  const st = tabState(tab);
  const frame = p.prefix === 0 ? await mainFrame(tab).catch((e) => ignore(e, 'no main frame (navigating): no cover controls to name')) : st.framesByPrefix.get(p.prefix);
  if (!frame) return '';
  const ids: number[] = [];
  for (const key of st.refs.keys()) {
    const q = parseRef(key);
    if (q && q.prefix === p.prefix && q.id !== p.id) ids.push(q.id);
  }
  const r = await evalInFrame<{ inside: number[]; texts: string[]; frame: boolean } | null>(tab, frame, pageCall(byRefPage.coverControls, p.id, ids, false)).catch((e) => ignore(e, 'the error names no controls then; it is raised all the same'));
  const found = r?.value;
  if (!found) return '';
  if (!found.inside.length && found.frame) {
    const named = await frameControls(tab, frame, pageCall(byRefPage.coverControls, p.id, [], true));
    if (named) return named;
  }
  if (found.inside.length) {
    markShownRefs(tab, found.inside.slice(0, MAX_CONTROLS).map((id) => refString(p.prefix, id)));
    const named = found.inside.slice(0, MAX_CONTROLS).map((id) => {
      const key = refString(p.prefix, id);
      const rec = st.refs.get(key)!;
      return `[${key}] ${rec.name ? `${rec.role} ${JSON.stringify(clip(rec.name, 60))}` : rec.role}`;
    });
    return ` Its controls: ${fenceInline(named.join(', '))}${found.inside.length > MAX_CONTROLS ? ` (and ${found.inside.length - MAX_CONTROLS} more)` : ''}.`;
  }
  return found.texts.length ? ` Its buttons (take a browser_snapshot for their refs): ${fenceInline(found.texts.map((t) => JSON.stringify(t)).join(', '))}.` : '';
}

/** Roles of a covering frame's elements that can dismiss it. */
const CONTROL_ROLES = new Set(['button', 'link', 'checkbox', 'switch', 'menuitem', 'tab']);

/** " Its controls (in frame fN): [fN:1] button "Accept all", …" for an iframe the cover expression returns. */
async function frameControls(tab: Tab, frame: FrameRef, expression: string): Promise<string> {
  const { objectId } = await evalInFrame<unknown>(tab, frame, expression, false).catch((e) => ignore(e, 'the frame may be gone: no controls to name', { objectId: undefined }));
  if (!objectId) return '';
  const { node } = await frame.session.send('DOM.describeNode', { objectId }).catch((e) => ignore(e, 'the object may be gone: no controls to name', { node: undefined }));
  frame.session.send('Runtime.releaseObject', { objectId }).catch((e) => ignore(e, 'release: the object dies with its context anyway'));
  const st = tabState(tab);
  const child = node?.frameId ? st.framesById.get(node.frameId) : undefined;
  if (!child) return node?.frameId ? ' It is a frame: take a browser_snapshot for its controls.' : '';
  const named: string[] = [];
  const keys: string[] = [];
  // The frame's controls of its current document only: an earlier one's refs name nothing now.
  const doc = st.docs.get(child.prefix);
  for (const [key, rec] of st.refs) {
    if (rec.prefix !== child.prefix || rec.doc !== doc || !CONTROL_ROLES.has(rec.role)) continue;
    keys.push(key);
    named.push(`[${key}] ${rec.name ? `${rec.role} ${JSON.stringify(clip(rec.name, 60))}` : rec.role}`);
  }
  markShownRefs(tab, keys.slice(0, MAX_CONTROLS));
  if (!named.length) return ` It is frame f${child.prefix}: take a browser_snapshot for its controls.`;
  return ` Its controls (in frame f${child.prefix}): ${fenceInline(named.slice(0, MAX_CONTROLS).join(', '))}${named.length > MAX_CONTROLS ? ` (and ${named.length - MAX_CONTROLS} more)` : ''}.`;
}
