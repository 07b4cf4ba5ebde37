/**
 * Page reads that name what they find by the snapshot's refs: in the frame's snapshot world, where
 * `globalThis.__baSnap` (page/snapshotWorld.ts) maps ref ids to elements (snapshot/hiddenFind.ts,
 * actions/focusName.ts, actions/blockers.ts).
 */
import { holds, loose, type Loose } from './dom';
import { elementAt } from './hit';
import { world } from './snapshotWorld';

const oneLine = (s: string | null | undefined) => (s || '').trim().replace(/\s+/g, ' ');

/** Hidden regions (closed details, collapsed aria-controls targets) with the control that opens each (its ref id when issued). */
export function hiddenRegions(ids: number[], maxRegions: number, maxChars: number): { id?: number; opener: string; text: string }[] {
  const S = world();
  const byEl = new Map<Element, number>();
  if (S) for (const i of ids) { const e = S.get(i); if (e) byEl.set(e, i); }
  const idOf = (el: Element) => byEl.get(el);
  const shown = (e: Element) => e.checkVisibility ? e.checkVisibility({ visibilityProperty: true }) : e.getClientRects().length > 0;
  const text = (e: Element, skip?: Element) => { let s = ''; const w = document.createTreeWalker(e, NodeFilter.SHOW_TEXT); for (let n = w.nextNode() as Text | null; n && s.length < maxChars; n = w.nextNode() as Text | null) if (!skip || !skip.contains(n)) { const p = n.parentElement; if (p && /^(script|style|template)$/.test(p.localName)) continue; s += n.data + ' '; } return s.replace(/\s+/g, ' ').trim(); };
  const name = (e: Element) => (e.getAttribute('aria-label') || (e as HTMLElement).innerText || '').trim().replace(/\s+/g, ' ').slice(0, 60);
  const out: { id?: number; opener: string; text: string }[] = [];
  const seen = new Set<Element>();
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
    for (const tid of (c.getAttribute('aria-controls') || '').split(/\s+/).filter(Boolean)) {
      const t = document.getElementById(tid);
      if (!t || seen.has(t) || shown(t)) continue;
      seen.add(t);
      out.push({ id: idOf(c), opener: name(c), text: text(t) });
    }
  }
  return out.filter((r) => r.text);
}

/** The deep active element's ref id among `ids`, else a short description; null when nothing has focus. */
export function focusedRef(ids: number[]): { id?: number; what?: string; name?: string } | null {
  let f = document.activeElement;
  while (f && f.shadowRoot && f.shadowRoot.activeElement) f = f.shadowRoot.activeElement;
  const a = loose(f);
  if (!a || a === document.body || a === document.documentElement) return null;
  const S = world();
  const id = S ? ids.find((i) => S.get(i) === a) : undefined;
  if (id !== undefined) return { id };
  const text = (s: string | null | undefined) => oneLine(s).slice(0, 60);
  const name = text(a.getAttribute('aria-label')) || text(a.labels && a.labels[0] && a.labels[0].innerText) || text(a.innerText) || text(a.value) || text(a.placeholder) || text(a.title);
  return { what: (a.getAttribute('role') || a.localName), name };
}

/**
 * What a click at the center of ref `id` hits, widened to the outermost ancestor that does not hold the element
 * (a consent wall's backdrop, a modal's layer), and the refs among `ids` inside it; when none, the texts of its
 * buttons. With `wantFrame`: the iframe of the cover (a banner served in one), or null.
 */
export function coverControls(id: number, ids: number[], wantFrame: boolean): { inside: number[]; texts: string[]; frame: boolean } | Element | null {
  const S = world();
  const el = S && S.get(id);
  if (!el || !el.isConnected) return null;
  const r = el.getBoundingClientRect();
  const hit = elementAt(document, r.left + r.width / 2, r.top + r.height / 2);
  if (!hit || holds(el, hit) || holds(hit, el)) return null;
  let cover = hit;
  for (let p = cover.parentElement; p && p !== document.body && p !== document.documentElement && !holds(p, el); p = p.parentElement) cover = p;
  const visible = (e: Element) => { const b = e.getBoundingClientRect(); return b.width > 0 && b.height > 0; };
  // A banner served in an iframe (Sourcepoint, TrustArc): its controls live in that frame.
  const frame = /^i?frame$/.test(cover.localName) ? cover : cover.querySelector('iframe');
  if (wantFrame) return frame;
  const inside = ids.filter((i) => { const e = S.get(i); return e && holds(cover, e) && visible(e); });
  const texts = inside.length ? [] : ([...cover.querySelectorAll('button,a[href],[role=button],input[type=button],input[type=submit]')] as Loose[]).filter(visible).slice(0, 6).map((b) => (b.getAttribute('aria-label') || b.innerText || b.value || '').trim().replace(/\s+/g, ' ').slice(0, 60)).filter(Boolean);
  return { inside, texts, frame: !!frame };
}
