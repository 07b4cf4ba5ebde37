import { EventEmitter } from 'node:events';
import type { Protocol } from 'devtools-protocol';
import { ignore } from '../base/ignore';
import type { CdpConnection } from './cdp';
import { NO_SERVICE_WORKERS } from './autoAttach';
import type { BlockedRequest } from './blockedLog';
import { PolicyRules, type RequestPolicy, type RequestVerdict } from './requestRules';
import { FETCH_TYPES, SETUP_TIMEOUT_MS, sender, type GuardedPage, type GuardedTarget } from './guardedTarget';
import { GuardedTargets } from './guardedTargets';
import { TargetInterception } from './targetInterception';
import { RequestRefusals } from './requestRefusals';
import { workerRequestEnded, workerRequestSent, workerRestarted, workerStopped } from './serviceWorkers';

export type { GuardedPage } from './guardedTarget';

/**
 * Enforces origin rules at the request, before anything reaches the network: auto-attaches to
 * every target of the browser (`Target.setAutoAttach` with `waitForDebuggerOnStart` and `flatten`,
 * at the browser and again in each page, frame and worker, so popups, new tabs, out-of-process
 * iframes and workers are paused until interception is on), enables `Fetch` in each, and fails
 * every request whose URL the policy refuses with `BlockedByClient`. Its sessions are separate
 * from the tabs' own, so tools never have to call it.
 *
 * This class decides which targets to attach and follows their events; the targets attached are kept in
 * guardedTargets.ts, what goes into each is targetInterception.ts, the verdicts and the blocked log
 * requestRefusals.ts, service workers' restarts and requests serviceWorkers.ts.
 */
export class RequestGuard extends EventEmitter {
  /** The targets attached and their set-ups. */
  private readonly targets = new GuardedTargets();
  private started?: Promise<void>;
  private rules = new PolicyRules();
  private syncing = Promise.resolve();
  private readonly offs: (() => void)[] = [];
  /** The guard's browser session (Target.attachToBrowserTarget), or undefined where it works at the root. */
  private root?: string;
  /**
   * Browser-wide auto-attach is real here (the browser gave a browser session): service workers are then
   * attached at the browser level only. Through the daemon's proxy or the extension relay it is not, and
   * pages attach their own service workers. Undefined until the guard starts.
   */
  private browserWide?: boolean;
  private readonly interception: TargetInterception;
  private readonly refusals: RequestRefusals;

  /**
   * `scope`: in a browser shared with other clients (session daemon), only our tabs (and their
   * frames and workers) are guarded; another client's pages are released at once and left to its
   * own guard and policy.
   */
  constructor(
    private readonly connection: CdpConnection,
    private readonly scope?: { owns(info: { targetId: string; openerId?: string }): boolean },
  ) {
    super();
    this.setMaxListeners(0);
    this.interception = new TargetInterception(connection, {
      rules: () => this.rules,
      browserWide: () => this.browserWide,
      pageEventsOn: (t) => this.emit('pageEvents', this.pageBySession(t.sessionId)),
    });
    this.refusals = new RequestRefusals(connection, () => this.rules, (entry) => this.emit('blocked', entry));
  }

  /** Sets (or clears) the rules; resolves once every attached target intercepts (or stops) accordingly. */
  async setPolicy(policy: RequestPolicy | undefined): Promise<void> {
    this.rules = new PolicyRules(policy);
    await this.sync();
  }

  get active(): boolean {
    return this.rules.active;
  }

  /** Brings interception in line with the policy (after a settings change); cheap when nothing changed. */
  sync(): Promise<void> {
    if (!this.active && !this.started) return Promise.resolve();
    const run = async () => {
      await this.start();
      const want = this.rules.fetchPatterns();
      const patterns = this.rules.socketPatterns();
      const ic = this.interception;
      await Promise.all([
        ic.browserFetch !== undefined && ic.browserFetch !== want ? ic.setBrowserFetch(want) : undefined,
        ...[...this.targets.all()]
          .filter((t) => FETCH_TYPES.has(t.type))
          .flatMap((t) => [
            (t.fetch !== want ? ic.setFetch(t, want) : Promise.resolve()).then(() => ic.setTabRules(t)),
            t.patterns !== patterns ? ic.setPatterns(t, patterns) : undefined,
            this.active ? ic.setPageEvents(t) : undefined,
          ])
          .map((p) => p?.catch((e) => ignore(e, 'the target went away; its detach removes it'))),
      ]);
      // The rules may have changed: the second line looks again at what each page shows.
      this.emit('synced');
    };
    this.syncing = this.syncing.then(run, run);
    return this.syncing;
  }

  /**
   * Resolves once `targetId` intercepts (or after `timeoutMs` when it never shows up). For tabs we
   * open ourselves: they start on about:blank and are sent to their URL only after this.
   */
  async guarded(targetId: string, timeoutMs = 2000): Promise<void> {
    if (!this.active) return;
    await this.sync();
    // Shared browser: a tab we just opened may have been announced before it was known to be ours.
    if (this.scope && !this.targets.known(targetId) && this.scope.owns({ targetId })) {
      const { sessionId } = await this.connection.send('Target.attachToTarget', { targetId, flatten: true }, undefined, SETUP_TIMEOUT_MS);
      if (!this.targets.known(targetId)) await this.onAttached({ sessionId, targetInfo: { targetId, type: 'page' } as Protocol.Target.TargetInfo, waitingForDebugger: false });
    }
    await this.targets.setUp(targetId, timeoutMs);
  }

  /**
   * Resolves once a child target (frame, worker) the guard auto-attached intercepts, or after
   * `timeoutMs` when the guard never sees it. The tab holding the same child paused waits for this
   * before releasing it.
   */
  async childReady(targetId: string, timeoutMs = 1000): Promise<void> {
    if (!this.active) return;
    await this.targets.setUp(targetId, timeoutMs);
  }

  /**
   * What a session of ours (a tab's, or the guard's in a page or frame) auto-attaches: not service workers where
   * the guard attaches them at the browser level (a second client could start one before the guard's barrier is
   * in); where browser-wide auto-attach is not real (the daemon's proxy, the extension relay) pages attach them,
   * in the one session the tab and the guard share there.
   */
  childFilter(): Protocol.Target.TargetFilter | undefined {
    return this.browserWide === false ? undefined : NO_SERVICE_WORKERS;
  }

  /** A mark to ask later what was blocked since (`blockedSince`). */
  mark(): number {
    return this.refusals.log.mark();
  }

  blockedSince(mark: number, targetIds?: Iterable<string>): BlockedRequest[] {
    return this.refusals.log.since(mark, targetIds);
  }

  /** The last block of `url` (for a navigation that failed with ERR_BLOCKED_BY_CLIENT). */
  lastBlockedFor(url: string, mark = 0): BlockedRequest | undefined {
    return this.refusals.log.lastFor(url, mark);
  }

  /** The page target behind one of the guard's sessions (main-frame commits arrive there). */
  pageBySession(sessionId: string | undefined): GuardedPage | undefined {
    return this.targets.pageBySession(sessionId);
  }

  /** The page targets the guard is attached to. */
  pages(): GuardedPage[] {
    return this.targets.pages();
  }

  /**
   * Why a tab's main frame may not show `url` (the policy's page rule), or undefined; nothing
   * while no rule is active. A rule that throws refuses, as for requests.
   */
  pageVerdict(url: string): RequestVerdict | undefined {
    return this.rules.pageVerdict(url);
  }

  dispose(): void {
    for (const off of this.offs.splice(0)) off();
    this.targets.clear();
    if (this.root && !this.connection.closed) void this.connection.send('Target.detachFromTarget', { sessionId: this.root }).catch((e) => ignore(e, 'the browser is closing'));
  }

  private start(): Promise<void> {
    this.started ??= (async () => {
      const conn = this.connection;
      // The guard's own browser session, where the browser gives one: what it auto-attaches is then announced there,
      // apart from the sessions other code attaches at the root (a tab's own, a probe), which the guard used to take
      // over as well (each request was paused in both). A shared browser refuses one, and the extension relay has
      // none; there the root's announcements are the guard's (the relay's only sessions are the tabs').
      const own = await conn.send('Target.attachToBrowserTarget', undefined, undefined, SETUP_TIMEOUT_MS).then((r) => r.sessionId, (e) => ignore(e, 'a shared browser or the extension relay gives none'));
      this.browserWide = !!own;
      // In a browser shared with other clients the guard stays at the root (our tabs become ours only once
      // announced there; see guarded()).
      if (own && !this.scope) this.root = own;
      else if (own) void conn.send('Target.detachFromTarget', { sessionId: own }, undefined, SETUP_TIMEOUT_MS).catch((e) => ignore(e, 'the browser session was only a probe'));
      this.listen();
      // Interception at the browser level first: it is in every request loader made from now on (see setBrowserFetch).
      // Only in a browser of our own, over a connection of our own (a shared browser's other clients' requests would
      // pause here too; the daemon's proxy and the relay have no browser session, and would not pass such events on).
      if (this.root) {
        this.interception.browserFetch = '';
        await this.interception.setBrowserFetch(this.rules.fetchPatterns());
      }
      // Browser level: every page target, existing and new (popups, window.open, new tabs), service and shared workers.
      await conn.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }, this.root, SETUP_TIMEOUT_MS);
      if (!this.browserWide) {
        // No browser-wide auto-attach (the daemon's proxy, the extension relay): it attached nothing. The pages
        // already open (ours) are attached one by one; pages opened from now on are announced as their tabs attach.
        const { targetInfos } = await conn.send('Target.getTargets', undefined, undefined, SETUP_TIMEOUT_MS).catch((e) => ignore(e, 'no list: the pages attach as their tabs do', { targetInfos: [] as Protocol.Target.TargetInfo[] }));
        const pages = targetInfos.filter((t) => t.type === 'page' && (!this.scope || this.scope.owns(t)));
        await Promise.all(pages.map((t) => conn.send('Target.attachToTarget', { targetId: t.targetId, flatten: true }, undefined, SETUP_TIMEOUT_MS).catch((e) => ignore(e, 'the page closed meanwhile'))));
      }
      // Existing targets are announced before that call returns; let their setup run.
      await this.targets.settled();
    })();
    return this.started;
  }

  /** The CDP events the guard follows, each mapped to the target of the session it arrived in. */
  private listen(): void {
    const conn = this.connection;
    const target = (sessionId?: string) => this.targets.get(sessionId);
    const handlers: Record<string, (p: any, sessionId?: string) => void> = {
      'Target.attachedToTarget': (p: Protocol.Target.AttachedToTargetEvent, parent?: string) => this.onAnnounced(p, parent),
      'Target.detachedFromTarget': (p: Protocol.Target.DetachedFromTargetEvent) => this.onDetached(p),
      'Fetch.requestPaused': (p: Protocol.Fetch.RequestPausedEvent, sessionId?: string) => {
        const t = target(sessionId);
        if (t) void this.refusals.paused(p, t.sessionId, () => t.targetId);
        else if (!sessionId && this.interception.browserFetch) void this.refusals.paused(p, undefined, () => this.pageOf(p.frameId));
      },
      'Runtime.bindingCalled': (p: Protocol.Runtime.BindingCalledEvent, sessionId?: string) => {
        const t = target(sessionId);
        if (t && p.name === this.interception.binding) this.refusals.socketRefused(t.targetId, p.payload);
      },
      // Service workers stop when idle (or when told to) and start again for the next event, in a fresh global scope.
      'Inspector.targetCrashed': (_p: unknown, sessionId?: string) => {
        const t = target(sessionId);
        if (t?.type === 'service_worker') workerStopped(conn, t);
      },
      'Inspector.targetReloadedAfterCrash': (_p: unknown, sessionId?: string) => {
        const t = target(sessionId);
        if (t?.type === 'service_worker') void workerRestarted(conn, t, this.interception, () => this.rules);
      },
      // What the renderer's URL blocking stopped in a service worker (see setPatterns), named like other refusals.
      'Network.requestWillBeSent': (p: Protocol.Network.RequestWillBeSentEvent, sessionId?: string) => {
        const t = target(sessionId);
        if (t?.type === 'service_worker') workerRequestSent(t, p);
      },
      'Network.loadingFailed': (p: { requestId: string; blockedReason?: string; type?: string }, sessionId?: string) => this.onWorkerRequestEnded(p, target(sessionId)),
      'Network.loadingFinished': (p: { requestId: string }, sessionId?: string) => this.onWorkerRequestEnded(p, target(sessionId)),
    };
    for (const [event, handler] of Object.entries(handlers)) {
      conn.on(event, handler);
      this.offs.push(() => conn.off(event, handler));
    }
  }

  private onWorkerRequestEnded(p: { requestId: string; blockedReason?: string; type?: string }, t: GuardedTarget | undefined): void {
    const url = t && workerRequestEnded(t, p);
    if (t && url !== undefined) this.refusals.rendererBlocked(t.targetId, url, p.type ?? 'Other');
  }

  /** A target announced to the guard (or to anyone at the root): taken when it is the guard's to guard. */
  private onAnnounced(p: Protocol.Target.AttachedToTargetEvent, parent?: string): void {
    // Only the browser-level auto-attach and that of our sessions: not a tab's own session or its children.
    const browserLevel = parent === this.root;
    if (!browserLevel && !(parent && this.targets.has(parent))) return;
    if (browserLevel && this.scope && p.targetInfo.type === 'page' && !this.scope.owns(p.targetInfo)) {
      // Another client's page: let it run and leave it alone.
      const send = sender(this.connection, p.sessionId);
      void send('Runtime.runIfWaitingForDebugger')
        .catch((e) => ignore(e, 'the page went away'))
        .then(() => this.connection.send('Target.detachFromTarget', { sessionId: p.sessionId }, parent, SETUP_TIMEOUT_MS).catch((e) => ignore(e, 'the page went away')));
      return;
    }
    // Through the daemon's proxy a popup is announced at the root twice: handed over paused by the daemon, and
    // again as its tab's own session. One session guards a page (in two, each request was paused twice).
    if (browserLevel && !this.root && p.targetInfo.type === 'page' && this.targets.guardsPage(p.targetInfo.targetId, this.root)) return;
    void this.onAttached(p, parent);
  }

  private onDetached(p: Protocol.Target.DetachedFromTargetEvent): void {
    const t = this.targets.get(p.sessionId);
    if (!t) return;
    this.targets.remove(t);
    // A worker that started again while the guard left it runs unguarded: take it back (set up like any running target).
    if (t.reattach && t.parent === this.root) void this.connection.send('Target.attachToTarget', { targetId: t.targetId, flatten: true }, this.root, SETUP_TIMEOUT_MS).catch((e) => ignore(e, 'the worker stopped again'));
  }

  private onAttached(p: Protocol.Target.AttachedToTargetEvent, parent?: string): Promise<void> {
    const t: GuardedTarget = {
      sessionId: p.sessionId,
      parent,
      targetId: p.targetInfo.targetId,
      type: p.targetInfo.type,
      fetch: '',
      patterns: '[]',
      url: p.targetInfo.url,
      fresh: p.waitingForDebugger && p.targetInfo.type === 'page',
    };
    this.targets.add(t);
    if (t.type === 'page') this.emit('pageAttached', this.pageBySession(t.sessionId));
    return this.targets.settingUp(t, this.interception.setUp(t, p.waitingForDebugger, this.childFilter()));
  }

  /** Whom a request stopped at the browser level is told as: its frame's page when that is one of ours, else the browser. */
  private pageOf(frameId: string | undefined): string {
    return frameId && this.pages().some((t) => t.targetId === frameId) ? frameId : 'browser';
  }
}
