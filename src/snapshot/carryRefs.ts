import type { Tab } from '../session/tab';
import { tabState } from './frames';

/**
 * Carries the refs of earlier tabs into `to`: the active one's records (so an old ref resolves to
 * "gone" and gets STALE_REF naming the element it was, with the closest current match), and, for
 * every frame prefix, a counter above any number issued before (so no old ref ever names a new
 * element).
 */
export function carryRefs(from: Iterable<Tab>, active: Tab | undefined, to: Tab): void {
  const dest = tabState(to);
  const ordered = [...from].filter((t) => t !== active && t !== to);
  if (active && active !== to) ordered.push(active); // the active tab's records win
  for (const tab of ordered) {
    const st = tabState(tab);
    for (const [prefix, next] of st.counters) dest.counters.set(prefix, Math.max(dest.counters.get(prefix) ?? 1, next));
    for (const [ref, rec] of st.refs) {
      dest.refs.set(ref, rec);
      const id = Number(/(\d+)$/.exec(ref)?.[1]);
      if (id >= (dest.counters.get(rec.prefix) ?? 1)) dest.counters.set(rec.prefix, id + 1);
    }
  }
}
