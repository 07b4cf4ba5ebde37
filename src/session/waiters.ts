/**
 * Callers waiting for something about a key (a target id) that an event will bring, each with its
 * own time limit: woken by the event, not by polling.
 */
export class Waiters {
  private readonly waiting = new Map<string, (() => void)[]>();

  /** Resolves when `wake(key)` is called, or after `timeoutMs`. */
  wait(key: string, timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      const list = this.waiting.get(key) ?? [];
      list.push(done);
      this.waiting.set(key, list);
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
  }

  wake(key: string): void {
    const list = this.waiting.get(key);
    this.waiting.delete(key);
    for (const done of list ?? []) done();
  }

  wakeAll(): void {
    for (const key of [...this.waiting.keys()]) this.wake(key);
  }
}
