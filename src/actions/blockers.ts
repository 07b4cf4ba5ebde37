// What keeps an element from being acted on, in words a model can act on: why a button is disabled (in the
// page's own words when it gives them), and which controls of the overlay covering it would dismiss it. Both run
// only on the error path, so actions that succeed pay nothing for them.
import { clip, fenceInline } from '../base/untrusted';
import { evalInFrame, mainFrame, parseRef, refString, tabState, type FrameRef } from '../snapshot/frames';
import { markShownRefs } from '../snapshot/shown';
import type { Tab } from '../session/tab';
import type { ElementHandle } from '../snapshot/types';
import { callOnElement } from './element';

/**
 * Why the page disabled the element: its description (aria-describedby, aria-errormessage, title), else the
 * fields of its form that are not valid yet (required and empty, a wrong format), named by their labels.
 */
const DISABLED_REASON = `(el) => {
  const doc = el.ownerDocument;
  const text = (n) => (n && (n.innerText || n.textContent) || '').trim().replace(/\\s+/g, ' ');
  const byIds = (attr) => (el.getAttribute(attr) || '').split(/\\s+/).filter(Boolean).map((id) => text(doc.getElementById(id))).filter(Boolean).join(' ');
  const said = byIds('aria-describedby') || byIds('aria-errormessage') || (el.getAttribute('title') || '').trim();
  if (said) return { said };
  const form = el.form || el.closest('form') || el.closest('[role=form],[role=dialog],dialog,fieldset');
  if (!form) return null;
  const fields = form.elements ? [...form.elements] : [...form.querySelectorAll('input,select,textarea')];
  const name = (f) => ((f.labels && f.labels[0] && text(f.labels[0])) || f.getAttribute('aria-label') || f.placeholder || f.name || f.localName).trim();
  const bad = fields.filter((f) => f !== el && (f.willValidate && !f.validity.valid || f.getAttribute('aria-invalid') === 'true'));
  return bad.length ? { fields: bad.slice(0, 3).map((f) => name(f) + (f.validity && f.validity.valueMissing ? ' (required, empty)' : f.validationMessage ? ' (' + f.validationMessage + ')' : ' (invalid)')), more: Math.max(0, bad.length - 3) } : null;
}`;

/** The sentence added to "is disabled": the page's reason, or the form's fields still to fill. */
export async function disabledReason(h: ElementHandle): Promise<string> {
  const r = await callOnElement<{ said?: string; fields?: string[]; more?: number } | null>(h, DISABLED_REASON).catch(() => null);
  if (r?.said) return ` The page says: ${fenceInline(clip(r.said, 300))}`;
  if (r?.fields?.length) return ` Fields of its form not valid yet: ${fenceInline(r.fields.map((f) => clip(f, 120)).join('; '))}${r.more ? ` (and ${r.more} more)` : ''}.`;
  return '';
}

/**
 * In the element's frame (snapshot world, where refs live): what a click at the element's center hits, widened
 * to the outermost ancestor that does not hold the element (a consent wall's backdrop, a modal's layer), and
 * the refs of the snapshot's elements inside it; when none were issued, the texts of its buttons.
 */
const COVER_CONTROLS = `(id, ids, wantFrame) => {
  const S = globalThis.__baSnap;
  const el = S && S.get(id);
  if (!el || !el.isConnected) return null;
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  let hit = document.elementFromPoint(x, y);
  for (let i = 0; hit && hit.shadowRoot && i < 16; i++) { const h = hit.shadowRoot.elementFromPoint(x, y); if (!h || h === hit) break; hit = h; }
  const holds = (a, b) => { for (let c = b; c; c = c.parentNode || c.host) if (c === a) return true; return false; };
  if (!hit || holds(el, hit) || holds(hit, el)) return null;
  let cover = hit;
  for (let p = cover.parentElement; p && p !== document.body && p !== document.documentElement && !holds(p, el); p = p.parentElement) cover = p;
  const visible = (e) => { const b = e.getBoundingClientRect(); return b.width > 0 && b.height > 0; };
  // A banner served in an iframe (Sourcepoint, TrustArc): its controls live in that frame.
  const frame = /^i?frame$/.test(cover.localName) ? cover : cover.querySelector('iframe');
  if (wantFrame) return frame;
  const inside = ids.filter((i) => { const e = S.get(i); return e && holds(cover, e) && visible(e); });
  const texts = inside.length ? [] : [...cover.querySelectorAll('button,a[href],[role=button],input[type=button],input[type=submit]')].filter(visible).slice(0, 6).map((b) => (b.getAttribute('aria-label') || b.innerText || b.value || '').trim().replace(/\\s+/g, ' ').slice(0, 60)).filter(Boolean);
  return { inside, texts, frame: !!frame };
}`;

/** Controls named in a COVERED error at most. */
const MAX_CONTROLS = 6;

/** " Inside it: [2] button "Accept all", …" for a COVERED error, or '' when the cover holds no control. */
export async function coverControls(tab: Tab, h: ElementHandle): Promise<string> {
  const p = parseRef(h.ref);
  if (!p) return '';
  const st = tabState(tab);
  const frame = p.prefix === 0 ? await mainFrame(tab).catch(() => undefined) : st.framesByPrefix.get(p.prefix);
  if (!frame) return '';
  const ids: number[] = [];
  for (const key of st.refs.keys()) {
    const q = parseRef(key);
    if (q && q.prefix === p.prefix && q.id !== p.id) ids.push(q.id);
  }
  const r = await evalInFrame<{ inside: number[]; texts: string[]; frame: boolean } | null>(tab, frame, `(${COVER_CONTROLS})(${p.id}, ${JSON.stringify(ids)}, false)`).catch(() => undefined);
  const found = r?.value;
  if (!found) return '';
  if (!found.inside.length && found.frame) {
    const named = await frameControls(tab, frame, `(${COVER_CONTROLS})(${p.id}, [], true)`);
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
  const { objectId } = await evalInFrame<unknown>(tab, frame, expression, false).catch(() => ({ objectId: undefined }));
  if (!objectId) return '';
  const { node } = await frame.session.send('DOM.describeNode', { objectId }).catch(() => ({ node: undefined }));
  frame.session.send('Runtime.releaseObject', { objectId }).catch(() => {});
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
