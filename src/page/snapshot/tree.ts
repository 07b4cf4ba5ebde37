// The composed tree the extractor walks: parents and focus cross shadow-root boundaries (closed roots
// too, once CDP has handed them over; roles.ts shadowOf).
import { shadowOf } from './roles';

/** The parent element, crossing out of a shadow root to its host. */
export function parentEl(n: Node): Element | null {
  const p = n.parentNode;
  if (!p) return null;
  if (p.nodeType === 11) return (p as ShadowRoot).host ?? null;
  return p as Element;
}

/** The focused element, inside shadow roots. */
export function deepActive(): Element | null {
  let a: Element | null = document.activeElement;
  while (a) {
    const next = shadowOf(a)?.activeElement;
    if (!next) break;
    a = next;
  }
  return a;
}

export function composedContains(outer: Element, inner: Element | null): boolean {
  for (let e: Element | null = inner; e; e = parentEl(e)) if (e === outer) return true;
  return false;
}
