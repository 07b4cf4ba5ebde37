// The state of one extractor run, shared by the walk, the naming and the output: the items so far, the
// text gathered between elements, the viewport and the counters. One object per run, passed along (not
// closures per element): the walk visits every element of the page.
import type { ElementItem, PageItem, RunOptions } from '../protocol';
import { clean } from './roles';
import { newItemState, type ItemState } from './items';
import { hoverRevealers } from './gestures';
import type { SiblingCache } from './structure';
import { deepActive } from './tree';

/** A style and box read once and kept for the walk. */
export interface Read {
  st: CSSStyleDeclaration;
  r: DOMRect;
}

export interface Run {
  items: PageItem[];
  vw: number;
  vh: number;
  sx: number;
  sy: number;
  active: Element | null;
  /** How far the scroll areas around the element being walked are scrolled, summed. */
  scrolledX: number;
  scrolledY: number;
  /** Text gathered since the last item, and the prefix its line gets (`## `, `- `). */
  buf: string;
  bufPrefix: string;
  /** Whether any text in `buf` comes from an element inside the viewport. */
  bufVp: boolean;
  /** The end of the last text or name, for an unnamed control's `after "…"`. */
  lastText: string;
  count: number;
  hitTests: number;
  /** Elements in the viewport, hit-tested after the walk, and only if something could cover them. */
  toHitTest: Array<{ el: Element; r: DOMRect; it: ElementItem }>;
  /** Something positioned could cover a control (cover.ts drawnOver). */
  mayOverlap: boolean;
  itemState: ItemState;
  /** Entries of CSS :hover menus (gestures.ts). */
  reveal: Set<Element>;
  sibCache: SiblingCache;
  /** Element behind each element item of this run, in order (a container learns which refs it holds). */
  emitted: Element[];
  /** The item of each element in `emitted`, and the structure words it got. */
  emittedItems: ElementItem[];
  structOf: Map<Element, string>;
  /** The text line that carries the rest of a name cut at MAX_NAME (reading.ts). */
  restOf: Map<ElementItem, PageItem>;
  /** Style and box of label controls, read ahead by their label (the walk reaches them next). */
  preread: Map<Element, Read>;
}

export function newRun(o: RunOptions): Run {
  return {
    items: [],
    vw: innerWidth,
    vh: innerHeight,
    sx: scrollX,
    sy: scrollY,
    active: deepActive(),
    scrolledX: 0,
    scrolledY: 0,
    buf: '',
    bufPrefix: '',
    bufVp: false,
    lastText: '',
    count: 0,
    hitTests: 0,
    toHitTest: [],
    // A subtree does not see the rest of the page, where an overlay may be: it always hit-tests.
    mayOverlap: o.root !== undefined,
    itemState: newItemState(),
    reveal: o.root === undefined ? hoverRevealers() : new Set<Element>(),
    sibCache: new Map(),
    emitted: [],
    emittedItems: [],
    structOf: new Map(),
    restOf: new Map(),
    preread: new Map(),
  };
}

/** The gathered text becomes one text item (with its prefix). */
export function flush(w: Run): void {
  const t = clean(w.buf);
  if (t) {
    w.items.push({ t: w.bufPrefix + t, vp: w.bufVp ? 1 : 0 });
    w.lastText = t.slice(-40);
  }
  w.buf = '';
  w.bufPrefix = '';
  w.bufVp = false;
}

/** Adds a state word to the last item, when it is an element. */
export function addState(w: Run, word: string): void {
  const last = w.items[w.items.length - 1];
  if ('id' in last) last.st = [last.st, word].filter(Boolean).join(' ');
}

export function inViewport(w: Run, r: DOMRect): boolean {
  return r.bottom > 0 && r.right > 0 && r.top < w.vh && r.left < w.vw;
}
