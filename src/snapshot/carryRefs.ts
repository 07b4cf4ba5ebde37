import type { Tab } from '../session/tab';
import { tabState } from './frames';

/**
 * Carries the ref records of earlier tabs into `to` (the active one's win), so that an old ref used
 * in the next call resolves to "gone" and gets STALE_REF naming the element it was (with the closest
 * current match) instead of TARGET_NOT_FOUND or, once the new page is numbered, someone else's
 * element. Like any ref of a replaced document, it is superseded by the next snapshot.
 */
export function carryRefs(from: Iterable<Tab>, active: Tab | undefined, to: Tab): void {
  const dest = tabState(to);
  const ordered = [...from].filter((t) => t !== active && t !== to);
  if (active && active !== to) ordered.push(active);
  for (const tab of ordered) for (const [ref, rec] of tabState(tab).refs) dest.refs.set(ref, rec);
}
