/**
 * Reads the policy makes before a call (previews, the focused element) must not make a hung page slower to
 * refuse: each read gets a deadline, and after a read timed out, the same page is not read again for a few
 * seconds (the handler's own probe says PAGE_HUNG). Reads at the moment of use (atUse.ts) do not go through
 * here: they must happen, and a failed one stops the action.
 */
const stalledAt = new WeakMap<object, number>();
const STALL_MS = 5000;

export async function boundedRead<T>(page: object, ms: number, read: () => Promise<T>): Promise<T | undefined> {
  const t = stalledAt.get(page);
  if (t !== undefined && Date.now() - t < STALL_MS) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMEOUT>((r) => (timer = setTimeout(() => r(TIMEOUT), ms)));
  try {
    const v = await Promise.race([read(), timeout]);
    if (v === TIMEOUT) {
      stalledAt.set(page, Date.now());
      return undefined;
    }
    return v;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

const TIMEOUT = Symbol('timeout');
