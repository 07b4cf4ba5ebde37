// The in-page extractor: one pass over a frame's DOM (open shadow roots included) that finds every
// interactive element, names it, reads its state, hit-tests it and interleaves the readable text.
// Runs in an isolated world (the page cannot see or tamper with it) and keeps refs stable in a
// WeakMap for as long as the document lives. Installed once per world as `globalThis.__baSnap`.
// A run composes: world.ts (refs kept between runs), runState.ts (one run's state), walk.ts (the pass),
// interactive.ts (who gets a ref), naming.ts and emit.ts (the element items), cover.ts (hit tests),
// closedHosts.ts (closed shadow roots); queries.ts answers the CDP side's other questions.
import type { RunOptions, RunResult } from '../protocol';
import { buildLabelMap, clearLabelMap } from './roles';
import { markEditHosts } from './gestures';
import { expandOptionsOf } from './options';
import { changeCount } from './changes';
import './announce';
import { addClosedRoots, resetHostCandidates, takeHostCandidates } from './closedHosts';
import { markCovered } from './cover';
import { details, fingerprint, summary } from './queries';
import { flush, newRun } from './runState';
import { parentEl } from './tree';
import { walk } from './walk';
import { DOC, S, get, markClickable, sweep } from './world';

function run(o: RunOptions): RunResult {
  const t0 = performance.now();
  sweep();
  buildLabelMap(document);
  // Refs are numbered per document (short refs on long sessions); a world re-created on the same document keeps counting.
  if (o.start > S.next && o.doc === DOC) S.next = o.start;
  S.frames = [];
  resetHostCandidates();
  const w = newRun(o);
  let root: Element | null = document.documentElement;
  if (o.root !== undefined) {
    const otherDocument = o.rootDoc !== undefined && o.rootDoc !== DOC;
    root = otherDocument ? null : get(o.root);
    if (!root) return { items: [], next: S.next, frames: 0, ms: 0, missingRoot: true, otherDocument, count: 0, url: location.href, title: document.title };
  }
  if (root) {
    const pc = o.root !== undefined && parentEl(root) ? getComputedStyle(parentEl(root)!).cursor : 'auto';
    expandOptionsOf(o.root !== undefined ? root : null);
    walk(w, root, pc, 0, false);
  }
  flush(w);
  // Only a positioned element (a modal, a cookie banner, a sticky header) can cover a control: pages without
  // one skip the hit tests, which cost most on big pages (elementFromPoint walks the whole layout).
  markCovered(w);
  clearLabelMap();
  let out = w.items;
  if (o.viewportOnly) out = w.items.filter((i) => !('vp' in i) || i.vp === 1);
  const page = { url: location.href, base: document.baseURI, title: document.title, doc: DOC, changes: changeCount() };
  return { items: out, next: S.next, frames: S.frames.length, hosts: S.hostCandidates.length, ms: Math.round(performance.now() - t0), count: w.count, ...page };
}

(globalThis as any).__baSnap = { run, get, doc: DOC, markClickable, markEditHosts, summary, details, fingerprint, frames: () => S.frames, takeHostCandidates, addClosedRoots, version: 1 };
