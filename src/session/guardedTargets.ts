// The targets the request guard is attached to, by its session id, and their set-ups by target id: who
// waits for a target before sending a tab somewhere waits here, also for one not announced yet.
import { guardedPage, type GuardedPage, type GuardedTarget } from './guardedTarget';
import { Waiters } from './waiters';

export class GuardedTargets {
  private readonly bySession = new Map<string, GuardedTarget>();
  /** Set-up of each target by target id, to wait for before sending a tab somewhere. */
  private readonly setups = new Map<string, Promise<void>>();
  /** Who waits for a target the guard has not seen yet, by target id (woken by settingUp). */
  private readonly waiting = new Waiters();
  private readonly pending = new Set<Promise<void>>();

  get(sessionId: string | undefined): GuardedTarget | undefined {
    return sessionId ? this.bySession.get(sessionId) : undefined;
  }

  has(sessionId: string): boolean {
    return this.bySession.has(sessionId);
  }

  all(): IterableIterator<GuardedTarget> {
    return this.bySession.values();
  }

  add(t: GuardedTarget): void {
    this.bySession.set(t.sessionId, t);
  }

  /** `t`'s set-up started: those waiting for it wait for the set-up now. Resolves with it. */
  settingUp(t: GuardedTarget, setup: Promise<void>): Promise<void> {
    this.pending.add(setup);
    this.setups.set(t.targetId, setup);
    this.waiting.wake(t.targetId);
    return setup.finally(() => this.pending.delete(setup));
  }

  remove(t: GuardedTarget): void {
    this.bySession.delete(t.sessionId);
    this.setups.delete(t.targetId);
  }

  clear(): void {
    this.bySession.clear();
  }

  /** Whether a set-up of `targetId` has started. */
  known(targetId: string): boolean {
    return this.setups.has(targetId);
  }

  /** The set-up of `targetId`, once it is announced (or after `timeoutMs` when it never is). */
  async setUp(targetId: string, timeoutMs: number): Promise<void> {
    if (!this.setups.has(targetId)) await this.waiting.wait(targetId, timeoutMs);
    await this.setups.get(targetId);
  }

  /** Every set-up under way has finished (and those they started). */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  /** A session attached from `parent` (the guard's at the root) already guards this page. */
  guardsPage(targetId: string, parent: string | undefined): boolean {
    for (const t of this.bySession.values()) if (t.targetId === targetId && t.type === 'page' && t.parent === parent) return true;
    return false;
  }

  pageBySession(sessionId: string | undefined): GuardedPage | undefined {
    const t = this.get(sessionId);
    return t?.type === 'page' ? guardedPage(t) : undefined;
  }

  pages(): GuardedPage[] {
    return [...this.bySession.values()].filter((t) => t.type === 'page').map(guardedPage);
  }
}
