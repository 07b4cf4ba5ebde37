/**
 * Tool calls running in this process, so a shutdown can let the ones it cut short finish and be recorded
 * (their audit step) before the audit log closes: runTool counts itself in and out.
 */
let running = 0;
let waiters: (() => void)[] = [];

export function callStarted(): void {
  running++;
}

export function callEnded(): void {
  running = Math.max(0, running - 1);
  if (running === 0) for (const w of waiters.splice(0)) w();
}

/** Resolves once no tool call is running, or after `ms`; true when they all finished. */
export function callsSettled(ms: number): Promise<boolean> {
  if (running === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      waiters = waiters.filter((w) => w !== done);
      resolve(false);
    }, ms);
    waiters.push(done);
  });
}
