/** The person stopped the run (its signal aborted). */
export class Cancelled extends Error {}

/** Resolves with the promise, or rejects at once when the signal aborts (a tool that ignores its signal cannot hold the run). */
export function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Cancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
