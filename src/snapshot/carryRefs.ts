import type { Tab } from '../session/tab';
import { tabState } from './frames';

/**
 * Carries the refs the model was shown on earlier tabs into `to` (the active one's win), marked with where they
 * were shown, so that an old ref used in the next call gets STALE_REF naming the element it was instead of
 * TARGET_NOT_FOUND or, once the new page is numbered, someone else's element.
 */
export function carryRefs(from: Iterable<Tab>, active: Tab | undefined, to: Tab, where: string): void {
  const dest = tabState(to);
  const ordered = [...from].filter((t) => t !== active && t !== to);
  if (active && active !== to) ordered.push(active);
  for (const tab of ordered) for (const [ref, rec] of tabState(tab).shown) dest.shown.set(ref, { ...rec, from: rec.from ?? where });
}
