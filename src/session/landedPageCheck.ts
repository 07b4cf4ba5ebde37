import { EventEmitter } from 'node:events';
import type { Protocol } from 'devtools-protocol';
import type { CdpConnection } from './cdp';
import type { BlockedRequest } from './blockedLog';
import type { GuardedPage, RequestGuard } from './requestGuard';
import type { RequestVerdict } from './requestRules';
import { Waiters } from './waiters';
import { ignore } from '../base/ignore';

/** What the session did about a page on a blocked origin, for the tools to tell the model. */
export interface PolicyAct extends RequestVerdict {
  seq: number;
  targetId: string;
  /** The page's URL (for Chrome's error page, the URL it could not load). */
  url: string;
  /** `left`: the tab was sent to about:blank; `closed`: a new tab that had shown nothing else was closed. */
  did: 'left' | 'closed';
  /**
   * What the session saw: a document `committed` on the origin, one `restored` from the back/forward
   * cache (no request: the guard cannot see it), the error page of a request the guard `stopped`, or
   * a page already showing when the rules `changed`, or when the agent `took` the tab up (a person's tab
   * in a browser we attached to).
   */
  cause: 'committed' | 'restored' | 'stopped' | 'changed' | 'took';
  /** For `stopped`: the guard's record (reported by whoever tells the model about the request). */
  stopped?: BlockedRequest;
  /** Told to the model already. */
  reported?: boolean;
}

export interface LandedPageScope {
  /** Pages the session acts on (in a browser we attached to, not a person's tabs the agent never used). */
  inHand(targetId: string): boolean;
  /** Tabs the session opened itself: left rather than closed (their opener handles them). */
  ours(targetId: string): boolean;
}

interface PageState {
  sessionId: string;
  /** What the main frame shows: the committed URL, or for an error page the URL it could not load. */
  url: string;
  /** Created while the guard watched and nothing but about:blank committed yet. */
  fresh: boolean;
  /** Some document (other than about:blank) committed since the guard attached. */
  committed: boolean;
  /** Commits seen, so a late answer about an earlier state is dropped. */
  commits: number;
}

const KEEP = 200;
const LEAVE_TIMEOUT_MS = 5000;
/** Nothing shown yet: no URL, about:blank, or not a URL at all (a new tab's initial frame reads ":"). */
const isBlank = (url: string) => !url || url === 'about:blank' || !/^[a-z][a-z0-9+.-]*:./i.test(url);

/**
 * The second line of origin enforcement, in the session: the request guard stops requests before
 * they are sent; this watches what each page's main frame actually shows (through the guard's own
 * sessions, so whoever drove the tab — an action, the page, another CDP client) and, when that is
 * on a blocked origin, leaves it for about:blank at once, or closes a new tab that had shown
 * nothing else. Cases the first line cannot see: a page restored from the back/forward cache (no
 * request at all), a document already showing when a rule is added, a commit racing a rule change.
 * The rules and the verdicts stay in src/safety (`RequestPolicy.checkPage`); this applies them and
 * records each act (`PolicyAct`) for the tools to report.
 */
export class LandedPageCheck extends EventEmitter {
  private readonly pages = new Map<string, PageState>();
  private readonly acts: PolicyAct[] = [];
  private seq = 0;
  private readonly pending = new Set<Promise<unknown>>();
  /** Targets being left or closed (one act per page). */
  private readonly busy = new Set<string>();
  private readonly waiters = new Waiters();
  private readonly offs: (() => void)[] = [];

  constructor(
    private readonly connection: CdpConnection,
    private readonly guard: RequestGuard,
    private readonly scope: LandedPageScope,
  ) {
    super();
    this.setMaxListeners(0);
    const onAttached = (p: GuardedPage) => {
      this.pages.set(p.targetId, { sessionId: p.sessionId, url: p.url, fresh: p.fresh, committed: false, commits: 0 });
      if (!p.fresh) this.check(p.targetId, 'changed');
    };
    const onPageEvents = (p: GuardedPage) => void this.readCommitted(p);
    const onNavigated = (p: Protocol.Page.FrameNavigatedEvent, sessionId?: string) => {
      if (p.frame.parentId) return;
      const page = this.guard.pageBySession(sessionId);
      if (page) this.onCommit(page, p.frame, p.type);
    };
    const onDestroyed = (p: Protocol.Target.TargetDestroyedEvent, sessionId?: string) => {
      if (sessionId) return;
      this.pages.delete(p.targetId);
      this.waiters.wake(p.targetId);
    };
    const onSynced = () => this.sweep();
    const onBlocked = (b: BlockedRequest) => this.onStopped(b);
    guard.on('pageAttached', onAttached);
    guard.on('pageEvents', onPageEvents);
    guard.on('synced', onSynced);
    guard.on('blocked', onBlocked);
    connection.on('Page.frameNavigated', onNavigated);
    connection.on('Target.targetDestroyed', onDestroyed);
    this.offs.push(
      () => guard.off('pageAttached', onAttached),
      () => guard.off('pageEvents', onPageEvents),
      () => guard.off('synced', onSynced),
      () => guard.off('blocked', onBlocked),
      () => connection.off('Page.frameNavigated', onNavigated),
      () => connection.off('Target.targetDestroyed', onDestroyed),
    );
  }

  /** A mark to ask later what the session did since (`since`). */
  mark(): number {
    return this.seq;
  }

  since(mark: number, targetIds?: Iterable<string>): PolicyAct[] {
    const ids = targetIds ? new Set(targetIds) : undefined;
    return this.acts.filter((a) => a.seq > mark && (!ids || ids.has(a.targetId)));
  }

  /** The acts not yet told to the model that `pick` chooses; they count as told from now on. */
  take(pick: (a: PolicyAct) => boolean = () => true): PolicyAct[] {
    const out = this.acts.filter((a) => !a.reported && pick(a));
    for (const a of out) a.reported = true;
    return out;
  }

  /** Resolves once every leave and close the session started has finished. */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  /**
   * Resolves once the session has seen where a new tab went (some document committed, the tab was
   * closed or left) or after `timeoutMs`; at once without active rules or for a tab the guard does not watch.
   */
  async settled(targetId: string, timeoutMs: number): Promise<void> {
    const ready = () => {
      const p = this.pages.get(targetId);
      return !this.guard.active || !p || p.committed || !p.fresh;
    };
    if (ready()) return;
    await this.waiters.wait(targetId, timeoutMs);
    await this.idle();
  }

  /** Looks at what the page shows now (the agent just took it up). */
  checkNow(targetId: string): void {
    this.check(targetId, 'took');
  }

  dispose(): void {
    for (const off of this.offs.splice(0)) off();
    this.waiters.wakeAll();
  }

  private onCommit(page: GuardedPage, frame: Protocol.Page.Frame, type: Protocol.Page.NavigationType) {
    const state = this.pages.get(page.targetId) ?? { sessionId: page.sessionId, url: '', fresh: page.fresh, committed: false, commits: 0 };
    this.pages.set(page.targetId, state);
    state.commits++;
    const errorPage = !!frame.unreachableUrl;
    state.url = errorPage ? frame.unreachableUrl! : frame.url + (frame.urlFragment ?? '');
    if (!isBlank(state.url)) state.committed = true;
    const stopped = errorPage ? this.guard.lastBlockedFor(state.url) : undefined;
    this.check(page.targetId, stopped ? 'stopped' : type === 'BackForwardCacheRestore' ? 'restored' : 'committed', stopped);
    // A fresh page stays fresh until something stayed on it (an allowed document).
    if (!this.busy.has(page.targetId) && !isBlank(state.url)) state.fresh = false;
    this.waiters.wake(page.targetId);
  }

  /**
   * The guard stopped a main-frame navigation: a new tab (a popup, `_blank`, a tab another client
   * opened) that has shown nothing else is closed at once — it may never commit an error page.
   */
  private onStopped(b: BlockedRequest) {
    if (!b.navigation || (b.frameId && b.frameId !== b.targetId)) return;
    const state = this.pages.get(b.targetId);
    if (!state?.fresh || state.committed || this.busy.has(b.targetId) || this.scope.ours(b.targetId) || !this.scope.inHand(b.targetId)) return;
    const verdict = this.guard.pageVerdict(b.url);
    if (verdict) this.enforce(b.targetId, state, b.url, verdict, 'stopped', b);
  }

  /**
   * Once the guard's session gets page events: what the main frame shows already, for a page that
   * committed before (a tab created with a URL starts loading before anyone can pause it).
   */
  private async readCommitted(page: GuardedPage) {
    const state = this.pages.get(page.targetId);
    if (!state) return;
    const seen = state.commits;
    const tree = await this.connection.send('Page.getFrameTree', undefined, page.sessionId, LEAVE_TIMEOUT_MS).catch((e) => ignore(e, 'the page may be gone or navigating; its next commit is checked again'));
    if (!tree || state.commits !== seen || this.pages.get(page.targetId) !== state) return;
    const frame = tree.frameTree.frame;
    this.onCommit(page, frame, 'Navigation');
  }

  /** Every watched page against the rules as they are now (after a settings change). */
  private sweep() {
    for (const id of this.pages.keys()) this.check(id, 'changed');
  }

  private check(targetId: string, cause: PolicyAct['cause'], stopped?: BlockedRequest) {
    const state = this.pages.get(targetId);
    if (!state || isBlank(state.url) || this.busy.has(targetId)) return;
    const verdict = this.guard.pageVerdict(state.url);
    if (!verdict || !this.scope.inHand(targetId)) return;
    this.enforce(targetId, state, state.url, verdict, cause, stopped);
  }

  /** Leaves the page (or closes a new tab that showed nothing else) and records why. */
  private enforce(targetId: string, state: PageState, url: string, verdict: RequestVerdict, cause: PolicyAct['cause'], stopped?: BlockedRequest) {
    const did = state.fresh && !this.scope.ours(targetId) ? 'closed' : 'left';
    const act: PolicyAct = { rule: verdict.rule, reason: verdict.reason, seq: ++this.seq, targetId, url, did, cause, ...(stopped ? { stopped } : {}) };
    this.acts.push(act);
    if (this.acts.length > KEEP) this.acts.splice(0, this.acts.length - KEEP);
    this.busy.add(targetId);
    const work = (async () => {
      try {
        if (did === 'closed') {
          const closed = await this.connection.send('Target.closeTarget', { targetId }, undefined, LEAVE_TIMEOUT_MS).then(() => true, () => false);
          if (closed) return;
          act.did = 'left';
        }
        await this.connection.send('Page.navigate', { url: 'about:blank' }, state.sessionId, LEAVE_TIMEOUT_MS).catch((e) => ignore(e, 'the tab may be gone; it counts as left'));
        state.url = 'about:blank';
      } finally {
        this.busy.delete(targetId);
      }
    })();
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
    this.emit('act', act);
  }
}
