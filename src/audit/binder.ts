import { BrowserAgentError } from '../errors';
import type { Tab } from '../session/tab';
import type { ElementHandle } from '../snapshot/types';
import type { RefBinder } from './replay';

/** What the binder needs from the snapshot layer. */
export interface SnapshotRefApi {
  /** Refs the snapshot issues for the page now (e.g. the snapshot's `elementsFor(tab)` lines that carry a ref). */
  candidates(tab: Tab): Promise<Array<{ ref: string; role: string; name: string }>>;
  /** The snapshot's `resolveRef`. */
  resolveRef(tab: Tab, ref: string): Promise<ElementHandle>;
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * Replay's link to the snapshot layer: finds the ref the snapshot gives to the element replay
 * re-located (same frame session and backend node). Candidates with the element's name are tried
 * first so a page with thousands of refs costs a few resolves. The ref's own role and name are
 * returned so replay checks the recorded fingerprint against the snapshot's view too.
 */
export function createSnapshotBinder(api: SnapshotRefApi, maxResolves = 400): RefBinder {
  return {
    async bind(tab, el) {
      const all = await api.candidates(tab);
      const name = norm(el.name);
      const ordered = [...all.filter((c) => norm(c.name) === name), ...all.filter((c) => norm(c.name) !== name)].slice(0, maxResolves);
      for (const c of ordered) {
        const h = await api.resolveRef(tab, c.ref).catch(() => undefined);
        if (h && h.backendNodeId === el.backendNodeId && h.session.id === el.session.id) return { ref: h.ref, role: h.role, name: h.name };
      }
      throw new BrowserAgentError('TARGET_NOT_FOUND', `The snapshot gives no ref to the re-located ${el.role} "${el.name}" (it may be hidden or not interactive).`);
    },
  };
}
