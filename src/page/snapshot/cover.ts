// Whether something is drawn over a control (a modal, a cookie banner, a sticky header): hit tests at a
// few points of each control in the viewport, run after the walk and only when the page has an element
// that could cover another, since elementFromPoint walks the whole layout.
import { cap, clean, shadowOf } from './roles';
import { elementAt } from '../hit';
import { clippedByAncestor } from './scrollAreas';
import type { Run } from './runState';
import { composedContains } from './tree';
import { S } from './world';

/** Whether an element with this style can be drawn over others: positioned out of flow, or stacked above them. */
export function drawnOver(st: CSSStyleDeclaration, display: string): boolean {
  const p = st.position;
  // An inline box is never absolute or fixed (those are blockified) and cannot be transformed.
  if (display === 'inline') return p === 'sticky' || (p === 'relative' && st.zIndex !== 'auto');
  return p === 'fixed' || p === 'absolute' || p === 'sticky' || (p === 'relative' && st.zIndex !== 'auto') || st.transform !== 'none';
}

/** Marks each hit-tested item covered (`cov`) by what is drawn over it, when the page may have such a thing. */
export function markCovered(w: Run): void {
  if (!w.mayOverlap) return;
  for (const { el, r, it } of w.toHitTest) {
    const c = coveredBy(el, r, w.vw, w.vh);
    if (c) it.cov = describeCoverer(c);
  }
}

function hitAt(x: number, y: number): Element | null {
  return elementAt(document, x, y, shadowOf);
}

/** Covered when every probe point inside the viewport hits something that is neither the element nor its ancestor. */
function coveredBy(el: Element, r: DOMRect, vw: number, vh: number): Element | null {
  const pts: Array<[number, number]> = [
    [r.left + r.width / 2, r.top + r.height / 2],
    [r.left + r.width * 0.2, r.top + r.height * 0.2],
    [r.left + r.width * 0.8, r.top + r.height * 0.8],
    [r.left + r.width * 0.8, r.top + r.height * 0.2],
    [r.left + r.width * 0.2, r.top + r.height * 0.8],
  ];
  let tested = 0;
  let first: Element | null = null;
  for (const [x, y] of pts) {
    if (x < 0 || y < 0 || x >= vw || y >= vh) continue;
    const h = hitAt(x, y);
    if (!h) continue; // outside the visual viewport after all
    tested++;
    if (composedContains(el, h) || composedContains(h, el)) return null;
    first ??= h;
  }
  return tested && !clippedByAncestor(el, r) ? first : null;
}

function describeCoverer(c: Element): string {
  const id = S.map.get(c);
  if (id !== undefined) return `[${id}]`;
  const label = clean(c.getAttribute('aria-label')) || clean(c.textContent).slice(0, 30);
  return label ? `${c.localName} "${cap(label, 30)}"` : c.localName;
}
