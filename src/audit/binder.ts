import { BrowserAgentError } from '../base/errors';
import type { Tab } from '../session/tab';
import { markShown, resolveLine } from '../snapshot';
import { elementsFor } from '../snapshot/snapshot';
import type { ElementHandle } from '../snapshot/types';
import type { RefBinder } from './replay';
import { ignore } from '../base/ignore';

/** A ref the snapshot issues for the page now, with whatever the snapshot layer needs to resolve it. */
export interface Candidate {
  ref: string;
  role: string;
  name: string;
}

/** What the binder needs from the snapshot layer. */
export interface SnapshotRefApi<C extends Candidate = Candidate> {
  /** Refs the snapshot issues for the page now (e.g. the snapshot's `elementsFor(tab)` lines that carry a ref). */
  candidates(tab: Tab): Promise<C[]>;
  /** The element of a candidate (the snapshot's `resolveLine`). */
  resolve(tab: Tab, c: C): Promise<ElementHandle>;
  /** Records the bound candidate as shown, so the replayed tool may use its ref (the snapshot's `markShown`). */
  show(tab: Tab, c: C): void;
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * Replay's link to the snapshot layer: finds the ref the snapshot gives to the element replay
 * re-located (same frame session and backend node). Candidates with the element's name are tried
 * first so a page with thousands of refs costs a few resolves. The ref's own role and name are
 * returned so replay checks the recorded fingerprint against the snapshot's view too.
 */
export function createSnapshotBinder<C extends Candidate>(api: SnapshotRefApi<C>, maxResolves = 400): RefBinder {
  return {
    async bind(tab, el) {
      const all = await api.candidates(tab);
      const name = norm(el.name);
      const ordered = [...all.filter((c) => norm(c.name) === name), ...all.filter((c) => norm(c.name) !== name)].slice(0, maxResolves);
      for (const c of ordered) {
        const h = await api.resolve(tab, c).catch((e) => ignore(e, 'a candidate that does not resolve is not the element'));
        if (h && h.backendNodeId === el.backendNodeId && h.session.id === el.session.id) {
          api.show(tab, c);
          return { ref: h.ref, role: h.role, name: h.name };
        }
      }
      throw new BrowserAgentError('TARGET_NOT_FOUND', `The snapshot gives no ref to the re-located ${el.role} "${el.name}" (it may be hidden or not interactive).`);
    },
  };
}

/** Replay's binder on the real snapshot: candidates are the lines of a fresh reading, bound ones marked shown. */
export function snapshotBinder(): RefBinder {
  return createSnapshotBinder({
    candidates: async (tab) => (await elementsFor(tab)).lines.filter((l) => l.ref && l.role).map((line) => ({ ref: line.ref!, role: line.role!, name: line.name ?? '', line })),
    resolve: (tab, c) => resolveLine(tab, c.line),
    show: (tab, c) => markShown(tab, [c.line]),
  });
}
