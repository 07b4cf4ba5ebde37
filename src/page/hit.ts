/**
 * The one hit test of page code: what a pointer at viewport point (x, y) reaches, through shadow roots (the
 * open ones, and closed ones the caller holds) and, for `hitThroughFrames`, into same-origin iframes.
 * `elementFromPoint` stops at a shadow host; asking its root again goes one level in, until it answers the same.
 */
import { ignore } from './ignore';

/** Shadow roots to descend into: the element's own open one, else the closed one the caller holds for it. */
export type Roots = (el: Element) => ShadowRoot | null | undefined;

const openRoot: Roots = (el) => el.shadowRoot;

/** The innermost element at (x, y) of `root`, through shadow roots; null over nothing. */
export function elementAt(root: Document | ShadowRoot, x: number, y: number, roots: Roots = openRoot): Element | null {
  let hit: Element | null = null;
  for (let i = 0; i < 32; i++) {
    const h = root.elementFromPoint(x, y);
    if (!h || h === hit) break;
    hit = h;
    const sr = roots(h);
    if (sr) root = sr;
    else break;
  }
  return hit;
}

const isFrame = (el: Element): el is HTMLIFrameElement => el.localName === 'iframe' || el.localName === 'frame';

export type FrameHit =
  /** An element, in `doc` (the top document or a same-origin iframe's), inside `frames` from the top. */
  | { el: Element; doc: Document; frames: HTMLIFrameElement[] }
  /** Nothing there. */
  | { empty: true; frames: HTMLIFrameElement[] }
  /** An iframe this document cannot look into: the point in its owner's document and inside its viewport. */
  | { crossOrigin: HTMLIFrameElement; docX: number; docY: number; x: number; y: number; frames: HTMLIFrameElement[] }
  /** Frames nested deeper than asked. */
  | { tooDeep: true; frames: HTMLIFrameElement[] };

/** What (x, y) of the top document reaches, descending into same-origin iframes at most `depth` times. */
export function hitThroughFrames(x: number, y: number, depth: number): FrameHit {
  let doc = document;
  const frames: HTMLIFrameElement[] = [];
  for (let d = 0; d < depth; d++) {
    const hit = elementAt(doc, x, y);
    if (!hit) return { empty: true, frames };
    if (!isFrame(hit)) return { el: hit, doc, frames };
    const r = hit.getBoundingClientRect();
    const ix = x - r.x - hit.clientLeft, iy = y - r.y - hit.clientTop;
    let inner: Document | null = null;
    try { inner = hit.contentDocument; } catch (e) { ignore(e, 'cross-origin: no document'); }
    if (!inner) {
      const w = doc.defaultView!;
      return { crossOrigin: hit, docX: x + w.scrollX, docY: y + w.scrollY, x: ix, y: iy, frames };
    }
    frames.push(hit);
    doc = inner; x = ix; y = iy;
  }
  return { tooDeep: true, frames };
}

/** The viewport box of the first element `selector` matches, or null. */
export function boxOf(selector: string): { x: number; y: number; width: number; height: number } | null {
  const e = document.querySelector(selector);
  if (!e) return null;
  const b = e.getBoundingClientRect();
  return { x: b.x, y: b.y, width: b.width, height: b.height };
}
