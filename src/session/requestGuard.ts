import { EventEmitter } from 'node:events';
import type { Protocol } from 'devtools-protocol';
import type { CdpConnection } from './cdp';
import { socketBarrierSource } from './socketBarrier';
import { NO_SERVICE_WORKERS } from './autoAttach';
import { Waiters } from './waiters';
import { TAB_RULES_METHOD, type TabRules } from './relayProtocol';
import { BlockedLog, type BlockedRequest } from './blockedLog';
import { PolicyRules, type RequestPolicy, type RequestVerdict } from './requestRules';

interface GuardedTarget {
  sessionId: string;
  targetId: string;
  type: string;
  /** The Fetch patterns installed (JSON), or '' when interception is off. */
  fetch: string;
  /** The WebSocket rules last installed (JSON), to reinstall only on change. */
  patterns: string;
  /** The barrier script added for new documents (pages and frames). */
  scriptId?: string;
  /** The URL the target had when the guard attached (pages: what the second line judges until a commit). */
  url: string;
  /** A page created while the guard watched (paused at start): it has shown nothing yet. */
  fresh: boolean;
  /** Page events are on in the guard's session (pages: the second line watches main-frame commits). */
  pageEvents?: boolean;
  /** Pages through the extension relay: the tab rules last sent (JSON; see setTabRules). */
  tabRules?: string;
  /** The session that attached it (the guard's browser session, or a page's or frame's): where it is detached. */
  parent?: string;
  /** Service workers: their requests by Network request id, to name what the renderer's URL blocking stopped. */
  requests?: Map<string, string>;
  /** Service workers: the guard is leaving the session of a stopped worker (see onWorkerStopped). */
  leaving?: boolean;
  /** Service workers: it started again before the guard had left; attach again once it has. */
  reattach?: boolean;
}

/** A page target the guard is attached to, for the second line. */
export interface GuardedPage {
  targetId: string;
  sessionId: string;
  url: string;
  fresh: boolean;
}

/** Where Fetch is supported (pages, out-of-process iframes, workers); other targets are only released. */
const FETCH_TYPES = new Set(['page', 'iframe', 'worker', 'shared_worker', 'service_worker']);
const SETUP_TIMEOUT_MS = 5000;
/** Service workers' requests remembered per worker, to name what the renderer's URL blocking stopped. */
const KEEP_REQUESTS = 200;

/**
 * Enforces origin rules at the request, before anything reaches the network: auto-attaches to
 * every target of the browser (`Target.setAutoAttach` with `waitForDebuggerOnStart` and `flatten`,
 * at the browser and again in each page, frame and worker, so popups, new tabs, out-of-process
 * iframes and workers are paused until interception is on), enables `Fetch` in each, and fails
 * every request whose URL the policy refuses with `BlockedByClient`. Its sessions are separate
 * from the tabs' own, so tools never have to call it.
 */
export class RequestGuard extends EventEmitter {
  private readonly targets = new Map<string, GuardedTarget>();
  /** Set-up of each target by target id, to wait for before sending a tab somewhere. */
  private readonly setups = new Map<string, Promise<void>>();
  private readonly blocked = new BlockedLog();
  private started?: Promise<void>;
  private rules = new PolicyRules();
  private syncing = Promise.resolve();
  private readonly offs: (() => void)[] = [];
  /**
   * The Fetch patterns installed at the browser level (JSON, '' for none), or undefined where that
   * level is not ours to use (a shared browser: it would pause other clients' requests; the daemon's
   * proxy and the extension relay have none). See setBrowserFetch.
   */
  private browserFetch?: string;
  /** The guard's browser session (Target.attachToBrowserTarget), or undefined where it works at the root. */
  private root?: string;
  /**
   * Browser-wide auto-attach is real here (the browser gave a browser session): service workers are then
   * attached at the browser level only. Through the daemon's proxy or the extension relay it is not, and
   * pages attach their own service workers. Undefined until the guard starts.
   */
  private browserWide?: boolean;
  /** The transport takes tab rules (the extension relay); false once it said it does not (any other). */
  private tabRulesTaken?: boolean;
  /** The binding through which WebSocket barriers report what they refused; unguessable per browser. */
  private readonly binding = `__browserAgentGuard_${Math.random().toString(36).slice(2)}`;

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
      await Promise.all([
        this.browserFetch !== undefined && this.browserFetch !== want ? this.setBrowserFetch(want) : undefined,
        ...[...this.targets.values()]
          .filter((t) => FETCH_TYPES.has(t.type))
          .flatMap((t) => [
            (t.fetch !== want ? this.setFetch(t, want) : Promise.resolve()).then(() => this.setTabRules(t)),
            t.patterns !== patterns ? this.setPatterns(t, patterns) : undefined,
            this.active ? this.setPageEvents(t) : undefined,
          ])
          .map((p) => p?.catch(() => undefined)),
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
    if (this.scope && !this.setups.has(targetId) && this.scope.owns({ targetId })) {
      const { sessionId } = await this.connection.send('Target.attachToTarget', { targetId, flatten: true }, undefined, SETUP_TIMEOUT_MS);
      if (!this.setups.has(targetId)) await this.onAttached({ sessionId, targetInfo: { targetId, type: 'page' } as Protocol.Target.TargetInfo, waitingForDebugger: false });
    }
    await this.setUp(targetId, timeoutMs);
  }

  /**
   * Resolves once a child target (frame, worker) the guard auto-attached intercepts, or after
   * `timeoutMs` when the guard never sees it. The tab holding the same child paused waits for this
   * before releasing it.
   */
  async childReady(targetId: string, timeoutMs = 1000): Promise<void> {
    if (!this.active) return;
    await this.setUp(targetId, timeoutMs);
  }

  /** Who waits for a target the guard has not seen yet, by target id (woken by onAttached). */
  private readonly waiting = new Waiters();

  /** The set-up of `targetId`, once it is announced (or after `timeoutMs` when it never is). */
  private async setUp(targetId: string, timeoutMs: number): Promise<void> {
    if (!this.setups.has(targetId)) await this.waiting.wait(targetId, timeoutMs);
    await this.setups.get(targetId);
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
    return this.blocked.mark();
  }

  blockedSince(mark: number, targetIds?: Iterable<string>): BlockedRequest[] {
    return this.blocked.since(mark, targetIds);
  }

  /** The last block of `url` (for a navigation that failed with ERR_BLOCKED_BY_CLIENT). */
  lastBlockedFor(url: string, mark = 0): BlockedRequest | undefined {
    return this.blocked.lastFor(url, mark);
  }

  /** The page target behind one of the guard's sessions (main-frame commits arrive there). */
  pageBySession(sessionId: string | undefined): GuardedPage | undefined {
    const t = sessionId ? this.targets.get(sessionId) : undefined;
    return t?.type === 'page' ? { targetId: t.targetId, sessionId: t.sessionId, url: t.url, fresh: t.fresh } : undefined;
  }

  /** The page targets the guard is attached to. */
  pages(): GuardedPage[] {
    return [...this.targets.values()].filter((t) => t.type === 'page').map((t) => ({ targetId: t.targetId, sessionId: t.sessionId, url: t.url, fresh: t.fresh }));
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
    if (this.root && !this.connection.closed) void this.connection.send('Target.detachFromTarget', { sessionId: this.root }).catch(() => undefined);
  }

  private start(): Promise<void> {
    this.started ??= (async () => {
      const conn = this.connection;
      // The guard's own browser session, where the browser gives one: what it auto-attaches is then announced there,
      // apart from the sessions other code attaches at the root (a tab's own, a probe), which the guard used to take
      // over as well (each request was paused in both). A shared browser refuses one, and the extension relay has
      // none; there the root's announcements are the guard's (the relay's only sessions are the tabs').
      const own = await conn.send('Target.attachToBrowserTarget', undefined, undefined, SETUP_TIMEOUT_MS).then((r) => r.sessionId, () => undefined);
      this.browserWide = !!own;
      // In a browser shared with other clients the guard stays at the root (our tabs become ours only once
      // announced there; see guarded()).
      if (own && !this.scope) this.root = own;
      else if (own) void conn.send('Target.detachFromTarget', { sessionId: own }, undefined, SETUP_TIMEOUT_MS).catch(() => undefined);
      const onAttached = (p: Protocol.Target.AttachedToTargetEvent, parent?: string) => {
        // Only the browser-level auto-attach and that of our sessions: not a tab's own session or its children.
        const browserLevel = parent === this.root;
        if (!browserLevel && !(parent && this.targets.has(parent))) return;
        if (browserLevel && this.scope && p.targetInfo.type === 'page' && !this.scope.owns(p.targetInfo)) {
          // Another client's page: let it run and leave it alone.
          const send = this.sender(p.sessionId);
          void send('Runtime.runIfWaitingForDebugger')
            .catch(() => undefined)
            .then(() => this.connection.send('Target.detachFromTarget', { sessionId: p.sessionId }, parent, SETUP_TIMEOUT_MS).catch(() => undefined));
          return;
        }
        // Through the daemon's proxy a popup is announced at the root twice: handed over paused by the daemon, and
        // again as its tab's own session. One session guards a page (in two, each request was paused twice).
        if (browserLevel && !this.root && p.targetInfo.type === 'page' && this.guardsPage(p.targetInfo.targetId)) return;
        void this.onAttached(p, parent);
      };
      const onDetached = (p: Protocol.Target.DetachedFromTargetEvent) => {
        const t = p.sessionId ? this.targets.get(p.sessionId) : undefined;
        if (!t) return;
        this.targets.delete(t.sessionId);
        this.setups.delete(t.targetId);
        // A worker that started again while the guard left it runs unguarded: take it back (set up like any running target).
        if (t.reattach && t.parent === this.root) void conn.send('Target.attachToTarget', { targetId: t.targetId, flatten: true }, this.root, SETUP_TIMEOUT_MS).catch(() => undefined);
      };
      // Service workers stop when idle (or when told to) and start again for the next event, in a fresh global scope.
      const onStopped = (_p: unknown, sessionId?: string) => {
        const t = sessionId ? this.targets.get(sessionId) : undefined;
        if (t?.type === 'service_worker') this.onWorkerStopped(t);
      };
      const onRestarted = (_p: unknown, sessionId?: string) => {
        const t = sessionId ? this.targets.get(sessionId) : undefined;
        if (t?.type === 'service_worker') void this.onWorkerRestarted(t);
      };
      // What the renderer's URL blocking stopped in a service worker (see setPatterns), named like other refusals.
      const onRequest = (p: Protocol.Network.RequestWillBeSentEvent, sessionId?: string) => {
        const t = sessionId ? this.targets.get(sessionId) : undefined;
        if (t?.type !== 'service_worker') return;
        const requests = (t.requests ??= new Map());
        requests.set(p.requestId, p.request.url);
        if (requests.size > KEEP_REQUESTS) requests.delete(requests.keys().next().value as string);
      };
      const onDone = (p: { requestId: string; blockedReason?: string; type?: string }, sessionId?: string) => {
        const t = sessionId ? this.targets.get(sessionId) : undefined;
        const url = t?.requests?.get(p.requestId);
        if (!t || url === undefined) return;
        t.requests!.delete(p.requestId);
        if (p.blockedReason === 'inspector') this.onRendererBlocked(t, url, p.type ?? 'Other');
      };
      conn.on('Network.requestWillBeSent', onRequest);
      conn.on('Network.loadingFailed', onDone);
      conn.on('Network.loadingFinished', onDone);
      this.offs.push(() => conn.off('Network.requestWillBeSent', onRequest), () => conn.off('Network.loadingFailed', onDone), () => conn.off('Network.loadingFinished', onDone));
      conn.on('Inspector.targetCrashed', onStopped);
      conn.on('Inspector.targetReloadedAfterCrash', onRestarted);
      this.offs.push(() => conn.off('Inspector.targetCrashed', onStopped), () => conn.off('Inspector.targetReloadedAfterCrash', onRestarted));
      const onPaused = (p: Protocol.Fetch.RequestPausedEvent, sessionId?: string) => {
        const t = sessionId ? this.targets.get(sessionId) : undefined;
        if (t) void this.onPaused(p, t.sessionId, () => t.targetId);
        else if (!sessionId && this.browserFetch) void this.onPaused(p, undefined, () => this.pageOf(p.frameId));
      };
      const onBinding = (p: Protocol.Runtime.BindingCalledEvent, sessionId?: string) => {
        const t = sessionId ? this.targets.get(sessionId) : undefined;
        if (t && p.name === this.binding) this.onSocketRefused(t, p.payload);
      };
      conn.on('Runtime.bindingCalled', onBinding);
      this.offs.push(() => conn.off('Runtime.bindingCalled', onBinding));
      conn.on('Target.attachedToTarget', onAttached);
      conn.on('Target.detachedFromTarget', onDetached);
      conn.on('Fetch.requestPaused', onPaused);
      this.offs.push(
        () => conn.off('Target.attachedToTarget', onAttached),
        () => conn.off('Target.detachedFromTarget', onDetached),
        () => conn.off('Fetch.requestPaused', onPaused),
      );
      // Interception at the browser level first: it is in every request loader made from now on (see setBrowserFetch).
      // Only in a browser of our own, over a connection of our own (a shared browser's other clients' requests would
      // pause here too; the daemon's proxy and the relay have no browser session, and would not pass such events on).
      if (this.root) {
        this.browserFetch = '';
        await this.setBrowserFetch(this.rules.fetchPatterns());
      }
      // Browser level: every page target, existing and new (popups, window.open, new tabs), service and shared workers.
      await conn.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }, this.root, SETUP_TIMEOUT_MS);
      if (!this.browserWide) {
        // No browser-wide auto-attach (the daemon's proxy, the extension relay): it attached nothing. The pages
        // already open (ours) are attached one by one; pages opened from now on are announced as their tabs attach.
        const { targetInfos } = await conn.send('Target.getTargets', undefined, undefined, SETUP_TIMEOUT_MS).catch(() => ({ targetInfos: [] as Protocol.Target.TargetInfo[] }));
        const pages = targetInfos.filter((t) => t.type === 'page' && (!this.scope || this.scope.owns(t)));
        await Promise.all(pages.map((t) => conn.send('Target.attachToTarget', { targetId: t.targetId, flatten: true }, undefined, SETUP_TIMEOUT_MS).catch(() => undefined)));
      }
      // Existing targets are announced before that call returns; let their setup run.
      await this.settled();
    })();
    return this.started;
  }

  /** A session of the guard's own at the root already guards this page. */
  private guardsPage(targetId: string): boolean {
    for (const t of this.targets.values()) if (t.targetId === targetId && t.type === 'page' && t.parent === this.root) return true;
    return false;
  }

  private pendingSetups = new Set<Promise<void>>();

  private async settled(): Promise<void> {
    while (this.pendingSetups.size) await Promise.all([...this.pendingSetups]);
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
    this.targets.set(p.sessionId, t);
    if (t.type === 'page') this.emit('pageAttached', this.pageBySession(t.sessionId));
    const setup = (async () => {
      const send = this.sender(t.sessionId);
      try {
        const steps: Promise<unknown>[] = [];
        if (FETCH_TYPES.has(t.type) && this.active) {
          steps.push(this.setFetch(t, this.rules.fetchPatterns()).then(() => this.setTabRules(t)));
          // A service worker paused at start has no JavaScript yet, and a new tab opened without an opener
          // (`target=_blank`, noopener) no renderer yet: their Page and Runtime commands are answered only once
          // they run (a tab waited 5 s, the set-up timeout), so they are sent (before the release, in order)
          // but not waited for.
          const renderer = [this.setPageEvents(t), this.setPatterns(t, this.rules.socketPatterns())];
          if (t.type === 'service_worker' || (t.type === 'page' && p.waitingForDebugger)) renderer.forEach((r) => r.catch(() => undefined));
          else steps.push(...renderer);
        }
        // Children of this target (out-of-process iframes, dedicated workers) are paused until guarded too.
        if (t.type === 'page' || t.type === 'iframe' || t.type.endsWith('worker')) {
          // Service workers are guarded from the browser-level session only (see NO_SERVICE_WORKERS), where there is one.
          steps.push(send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true, filter: this.childFilter() }).catch(() => undefined));
        }
        await Promise.all(steps);
      } catch {
        /* the target went away while we set it up */
      } finally {
        // Not waited for: a service worker answers only once every client attached to it (another CDP client's
        // too) has released it; our tabs leave service workers to this session (NO_SERVICE_WORKERS).
        if (p.waitingForDebugger) void send('Runtime.runIfWaitingForDebugger').catch(() => undefined);
      }
    })();
    this.pendingSetups.add(setup);
    this.setups.set(t.targetId, setup);
    this.waiting.wake(t.targetId);
    return setup.finally(() => this.pendingSetups.delete(setup));
  }

  /**
   * A service worker stopped. One the guard attached to while it ran would start again inside this
   * session without pausing, so its script would run before a barrier could be put into its new
   * global scope (its WebSocket got out on every restart): the guard leaves it, and its next start
   * is a new target the browser-level auto-attach hands over paused, like a first start. One
   * attached at its start pauses on restart too, and is set up again in onWorkerRestarted.
   */
  private onWorkerStopped(t: GuardedTarget): void {
    if (t.leaving) return;
    t.leaving = true;
    void this.connection.send('Target.detachFromTarget', { sessionId: t.sessionId }, t.parent, SETUP_TIMEOUT_MS).catch(() => undefined);
  }

  /**
   * A service worker started again inside the guard's session, in a fresh global scope: interception
   * and the barrier go in again before it is let run (it is paused when the guard attached at its
   * start; a paused worker nobody releases would never run again).
   */
  private async onWorkerRestarted(t: GuardedTarget): Promise<void> {
    if (t.leaving) {
      // It started before the guard had left: attach again once the detach is through.
      t.reattach = true;
      return;
    }
    const send = this.sender(t.sessionId);
    try {
      if (this.active) {
        await this.setFetch(t, this.rules.fetchPatterns());
        // A fresh global scope: the barrier goes in again, whatever was installed in the old one.
        t.patterns = '[]';
        // Answered only once the worker runs: sent before the release, not waited for.
        this.setPatterns(t, this.rules.socketPatterns()).catch(() => undefined);
      }
    } catch {
      /* it stopped again */
    } finally {
      void send('Runtime.runIfWaitingForDebugger').catch(() => undefined);
    }
  }

  private sender(sessionId: string) {
    return <M extends Parameters<CdpConnection['send']>[0]>(method: M, params?: Parameters<CdpConnection['send']>[1]) =>
      this.connection.send(method, params as never, sessionId, SETUP_TIMEOUT_MS);
  }

  /** `patterns`: JSON of the URL patterns to pause, '' for none. Fetch.enable again replaces the patterns. */
  private async setFetch(t: GuardedTarget, patterns: string): Promise<void> {
    if (patterns) {
      const list = (JSON.parse(patterns) as string[]).map((urlPattern) => ({ urlPattern, requestStage: 'Request' as const }));
      await this.connection.send('Fetch.enable', { patterns: list }, t.sessionId, SETUP_TIMEOUT_MS);
    } else await this.connection.send('Fetch.disable', undefined, t.sessionId, SETUP_TIMEOUT_MS);
    t.fetch = patterns;
  }

  /**
   * Through the extension relay (no browser-wide auto-attach): the tab's rules for Chrome's own request
   * blocking (declarativeNetRequest), which the extension applies to the tabs this tab opens from their
   * first request on, before any debugger reaches them, and to this tab until its interception is on
   * (`intercepting`: then Fetch decides, and names each refusal). Only where browser-wide auto-attach is
   * not real; a transport that does not know the method (the daemon's proxy to a real browser) says so
   * once and is not asked again.
   */
  private async setTabRules(t: GuardedTarget): Promise<void> {
    if (t.type !== 'page' || this.browserWide !== false || this.tabRulesTaken === false) return;
    const rules: TabRules = { rules: this.active ? this.rules.regexRules() : [], intercepting: this.active && !!t.fetch };
    const want = JSON.stringify(rules);
    if (t.tabRules === want) return;
    t.tabRules = want;
    try {
      await this.connection.send(TAB_RULES_METHOD as 'Page.enable', rules as never, t.sessionId, SETUP_TIMEOUT_MS);
      this.tabRulesTaken = true;
    } catch (e) {
      t.tabRules = undefined;
      if (/wasn't found/.test((e as Error).message) && !this.tabRulesTaken) this.tabRulesTaken = false;
    }
  }

  /**
   * Interception at the browser level, behind the targets' own: Chrome puts it into every request
   * loader created after this call, whoever the loader is for. A target's own `Fetch.enable` reaches
   * loaders made before it only by an update sent to the renderer; a service worker started again
   * gets its loaders at its start, and the update arrived after its first requests had gone out
   * (its fetch in the first event it handled reached a blocked server). The targets' interception
   * still pauses first (and says which tab a refusal belongs to); this level sees what passed there,
   * or what no target interception saw.
   */
  private async setBrowserFetch(patterns: string): Promise<void> {
    try {
      if (patterns) await this.connection.send('Fetch.enable', { patterns: (JSON.parse(patterns) as string[]).map((urlPattern) => ({ urlPattern, requestStage: 'Request' as const })) }, undefined, SETUP_TIMEOUT_MS);
      else await this.connection.send('Fetch.disable', undefined, undefined, SETUP_TIMEOUT_MS);
      this.browserFetch = patterns;
    } catch {
      // Refused: the targets' interception is the only one.
      this.browserFetch = undefined;
    }
  }

  /** Whom a request stopped at the browser level is told as: its frame's page when that is one of ours, else the browser. */
  private pageOf(frameId: string | undefined): string {
    return frameId && this.pages().some((t) => t.targetId === frameId) ? frameId : 'browser';
  }

  /** Main-frame commits of a page reach the guard's session (for the second line); once per target. */
  private async setPageEvents(t: GuardedTarget): Promise<void> {
    if (t.type !== 'page' || t.pageEvents) return;
    t.pageEvents = true;
    try {
      await this.connection.send('Page.enable', undefined, t.sessionId, SETUP_TIMEOUT_MS);
    } catch {
      t.pageEvents = false;
      return;
    }
    // A commit before this point was not seen (a tab another client created with a URL loads at once).
    this.emit('pageEvents', this.pageBySession(t.sessionId));
  }

  /**
   * Installs the WebSocket barrier for documents to come (pages, frames) and for the current one.
   * One batch: a session runs its commands in order, so none waits for the previous answer (a
   * frame or worker paused at start stays paused for one round trip, not five).
   */
  private async setPatterns(t: GuardedTarget, patterns: string): Promise<void> {
    if (patterns === t.patterns) return;
    const send = this.sender(t.sessionId);
    const batch: Promise<unknown>[] = [];
    if (t.scriptId) batch.push(send('Page.removeScriptToEvaluateOnNewDocument', { identifier: t.scriptId }).catch(() => undefined));
    t.scriptId = undefined;
    t.patterns = patterns;
    if (patterns !== '[]') {
      const source = socketBarrierSource(JSON.parse(patterns), this.binding);
      batch.push(send('Runtime.addBinding', { name: this.binding }));
      if (t.type === 'page' || t.type === 'iframe') {
        // Scripts for new documents only run in sessions with Page enabled, and the binding reaches them only with Runtime enabled.
        batch.push(send('Page.enable'), send('Runtime.enable'));
        // runImmediately: the current document (and its same-process frames) get it too.
        batch.push(send('Page.addScriptToEvaluateOnNewDocument', { source, runImmediately: true }).then((r) => (t.scriptId = r.identifier)));
      } else batch.push(send('Runtime.evaluate', { expression: source }).catch(() => undefined));
    }
    // A service worker's request loaders can predate its interception (see setBrowserFetch); the renderer's own
    // URL blocking, set while it is paused at its start, stops its requests from its first line.
    if (t.type === 'service_worker') {
      const http = (JSON.parse(patterns) as { urlPattern: string; block: boolean }[]).map((r) => ({ ...r, urlPattern: r.urlPattern.replace(/^ws(s?):/, 'http$1:') }));
      batch.push(send('Network.enable').catch(() => undefined), send('Network.setBlockedURLs', { urlPatterns: http }).catch(() => undefined));
    }
    await Promise.all(batch);
  }

  /** A request paused in `sessionId` (undefined: at the browser level); `owner` names its target, asked only on a refusal. */
  private async onPaused(p: Protocol.Fetch.RequestPausedEvent, sessionId: string | undefined, owner: () => string): Promise<void> {
    const verdict = this.rules.verdict(p.request.url);
    if (!verdict) {
      await this.connection.send('Fetch.continueRequest', { requestId: p.requestId }, sessionId, SETUP_TIMEOUT_MS).catch(() => undefined);
      return;
    }
    const entry = this.blocked.record(owner(), verdict, p.request.url, p.resourceType, p.frameId);
    await this.connection.send('Fetch.failRequest', { requestId: p.requestId, errorReason: 'BlockedByClient' }, sessionId, SETUP_TIMEOUT_MS).catch(() => undefined);
    this.emit('blocked', entry);
  }

  /** The renderer's URL blocking stopped a service worker's request (its rules are the policy's own). */
  private onRendererBlocked(t: GuardedTarget, url: string, resourceType: string): void {
    const verdict = this.rules.verdict(url);
    if (verdict) this.emit('blocked', this.blocked.record(t.targetId, verdict, url, resourceType));
  }

  /** A barrier refused a WebSocket; recorded only when the policy agrees (the report comes from page context). */
  private onSocketRefused(t: GuardedTarget, url: string): void {
    const verdict = this.rules.socketVerdict(url);
    if (verdict) this.emit('blocked', this.blocked.record(t.targetId, verdict, url, 'WebSocket'));
  }

}
