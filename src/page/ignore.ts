/**
 * In-page twin of src/base/ignore.ts: drops an error on purpose and names why. It leaves no trace: this code
 * may run among the page's own scripts, and a page could plant a `process` global whose write throws (an
 * error that was swallowed would then escape a guard) or reads what we pass it.
 */
export function ignore(err: unknown, why: string): undefined;
export function ignore<T>(err: unknown, why: string, fallback: T): T;
export function ignore<T>(_err: unknown, _why: string, fallback?: T): T | undefined {
  return fallback;
}
