// What the extractor keeps in its world between runs, for as long as the document lives: the refs it
// handed out (stable per element, given back to a re-rendered copy), the elements marked clickable,
// the frames of the last run and the closed-shadow-root candidates (closedHosts.ts).
import { parentEl } from './tree';

export interface State {
  map: WeakMap<Element, number>;
  byId: Map<number, WeakRef<Element>>;
  sigOf: Map<number, string>;
  /** Signatures of elements that disappeared since the last run: a re-render gets its ref back. */
  gone: Map<string, number[]>;
  next: number;
  click: WeakSet<Element>;
  frames: Element[];
  /** Elements that may host a closed shadow root, found by the last run and not yet asked about. */
  hostCandidates: Element[];
  /** Candidates already asked about, and whether they were upgraded custom elements by then. */
  probed: WeakMap<Element, boolean>;
}

/** This document's identity: refs are numbered per document. */
export const DOC = String(performance.timeOrigin);

export const S: State = {
  map: new WeakMap(),
  byId: new Map(),
  sigOf: new Map(),
  gone: new Map(),
  next: 1,
  click: new WeakSet(),
  frames: [],
  hostCandidates: [],
  probed: new WeakMap(),
};

/** Role, name and ancestor tags: what a re-rendered copy of the element shares with the original. */
function signature(el: Element, role: string, name: string): string {
  let path = '';
  let e: Element | null = el;
  for (let i = 0; i < 4 && e; i++) {
    path += e.localName + '/';
    e = parentEl(e);
  }
  return role + '|' + name + '|' + path;
}

export function refFor(el: Element, role: string, name: string): number {
  let id = S.map.get(el);
  if (id !== undefined) return id;
  const sig = signature(el, role, name);
  // Re-rendered copies come back in document order: hand out the old refs first-come first-served.
  id = S.gone.get(sig)?.shift();
  if (id === undefined) id = S.next++;
  S.map.set(el, id);
  S.byId.set(id, new WeakRef(el));
  S.sigOf.set(id, sig);
  return id;
}

export function get(id: number): Element | null {
  const el = S.byId.get(id)?.deref();
  return el && el.isConnected ? el : null;
}

/** Forgets elements that left the document, keeping their signatures for one run (re-renders). */
export function sweep() {
  S.gone.clear();
  for (const [id, ref] of S.byId) {
    const el = ref.deref();
    if (!el || !el.isConnected) {
      S.byId.delete(id);
      const sig = S.sigOf.get(id);
      S.sigOf.delete(id);
      if (sig && el) S.map.delete(el);
      if (sig) {
        const q = S.gone.get(sig);
        if (q) q.push(id);
        else S.gone.set(sig, [id]);
      }
    }
  }
}

export function markClickable(...els: unknown[]) {
  for (const e of els) if (e instanceof Element) S.click.add(e);
  return els.length;
}
