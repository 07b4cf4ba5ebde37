import type { Protocol } from 'devtools-protocol';
import { BrowserAgentError } from '../base/errors';
import type { ProbeLink } from '../session/tabChoice';
import type { CdpTransport } from '../session/transport';
import { TabOwnership } from '../session/tabOwnership';
import { ignore } from '../base/ignore';

/** What the hub needs of a daemon session: where its messages go and which targets it may see. */
export interface HubClient {
  readonly id: string;
  /** A CDP message for this client (its own `id` restored). */
  deliver(line: string): void;
  /** The client asked for Target.* discovery events (of its own tabs). */
  discover: boolean;
  /** The tab the client last brought to front (for "focus" from the Sessions view). */
  activeTarget?: string;
  /**
   * The client asked for browser-wide auto-attach paused at start (its request guard): its new pages
   * (popups) are handed to it paused, as Chrome would, and run once it lets them.
   */
  autoAttach?: boolean;
}

interface Pending {
  client?: HubClient;
  clientId?: number;
  method: string;
  /** The hub's own calls (and, after a timeout, what to do with a late answer). */
  resolve?: (v: any) => void;
  reject?: (e: Error) => void;
  timer?: NodeJS.Timeout;
  /** Tab a forwarded Target.* call was about, for bookkeeping when it answers. */
  targetId?: string;
}

// `{"id":12,"method":"Page.navigate","sessionId":"ABC",` — what our CdpConnection writes first.
const COMMAND_HEAD = /^\{"id":(\d+),"method":"([^"]+)"(?:,"sessionId":"([^"]+)")?,/;
const RESPONSE_HEAD = /^\{"id":(\d+)/;
// Chrome writes an event's sessionId last.
const EVENT_TAIL = /,"sessionId":"([^"]+)"\}$/;

/** Page-session Target.* calls a client may make: its own iframes and workers only. */
const SESSION_TARGET_METHODS = new Set(['Target.setAutoAttach', 'Target.getTargetInfo', 'Target.detachFromTarget']);
/**
 * Browser-wide calls that would reach other clients' tabs or end the shared browser. (`Fetch.enable` at the
 * browser level would pause every client's requests, and its events reach no client.)
 */
const DENIED = new Set(['Browser.close', 'Browser.crash', 'Browser.crashGpuProcess', 'Target.attachToBrowserTarget', 'Target.exposeDevToolsProtocol', 'Target.autoAttachRelated', 'Target.setRemoteLocations', 'Fetch.enable']);

function cdpError(id: number, message: string): string {
  return JSON.stringify({ id, error: { code: -32000, message } });
}

/**
 * One browser connection shared by many clients. Client CDP messages pass through with only their
 * `id` renumbered (a prefix rewrite, no JSON round trip); answers and page events go back to the
 * client that owns the page session. A client sees, lists, attaches to and closes only its own tabs
 * (the ones it created, was given, or that its tabs opened as popups).
 */
export class BrowserHub {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Flattened CDP session → client (page sessions and their iframes/workers). */
  private readonly sessionOwner = new Map<string, HubClient>();
  /** Page target → client: which client owns which tab. */
  private readonly tabs = new TabOwnership<HubClient>();
  /** Every page target the browser has, as discovery reports it. */
  readonly targets = new Map<string, Protocol.Target.TargetInfo>();
  private readonly downloadOwner = new Map<string, HubClient>();
  /** Tabs we closed whose targetDestroyed has not come yet: never listed or handed out again. */
  private readonly closing = new Set<string>();
  /** Client attachToTarget calls in flight, by target: their attachedToTarget events are not the hub's own. */
  private readonly attaching = new Map<string, number>();
  /** Page sessions of the hub's own look at the pages, and where their events go (never to a client). */
  private readonly taps = new Map<string, (method: string, params: any) => void>();
  /** The look's attachToTarget calls in flight, by target. */
  private readonly probeAttaching = new Map<string, number>();
  /**
   * attachedToTarget events of a page the look and a client attach at once: whose each is shows only in the
   * answers (by session), so they wait for them; the client's goes to it, the look's nowhere.
   */
  private readonly heldTwins = new Map<string, string>();
  /**
   * The hub's browser-wide auto-attach (pages only, paused at start), on from the first client that asks for it
   * (left on: a new page nobody of ours waits for is then held for one round trip).
   */
  private autoAttach?: Promise<void>;
  private _closed = false;
  onclose?: () => void;

  constructor(
    private readonly transport: CdpTransport,
    readonly timeoutMs = 30_000,
  ) {
    transport.onmessage = (line) => this.fromBrowser(line);
    transport.onclose = () => this.closed();
  }

  get isClosed(): boolean {
    return this._closed;
  }

  async init(): Promise<void> {
    await this.call('Target.setDiscoverTargets', { discover: true });
    const { targetInfos } = await this.call('Target.getTargets');
    for (const t of targetInfos as Protocol.Target.TargetInfo[]) if (t.type === 'page') this.targets.set(t.targetId, t);
  }

  /**
   * A command of the hub's own. `settled` hears the answer at once, as it comes (undefined for an error), even
   * one that comes after the timeout (`late`).
   */
  call(method: string, params: object = {}, sessionId?: string, timeoutMs = this.timeoutMs, settled?: (result: any, late: boolean) => void): Promise<any> {
    if (this._closed) return Promise.reject(new BrowserAgentError('BROWSER_DISCONNECTED', `The browser connection is closed (while calling ${method}).`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (settled) this.pending.set(id, { method, resolve: (r) => settled(r, true), reject: () => settled(undefined, true) });
        else this.pending.delete(id);
        reject(new BrowserAgentError('TIMEOUT', `CDP call ${method} got no answer within ${timeoutMs} ms.`));
      }, timeoutMs);
      this.pending.set(id, {
        method,
        timer,
        resolve: (r) => (settled?.(r, false), resolve(r)),
        reject: (e) => (settled?.(undefined, false), reject(e)),
      });
      this.transport.send(JSON.stringify(sessionId ? { id, method, sessionId, params } : { id, method, params }));
    });
  }

  /**
   * A look at the pages (src/session/tabChoice.ts probePages) through this one connection: no DevTools
   * connection of its own (a Chrome that asks "Allow remote debugging?" per connection asks once for the
   * daemon). Its page sessions and their events are the hub's own, never assigned or forwarded to a client,
   * and it looks only into pages no client owns or is attaching to.
   */
  probeLink(): ProbeLink {
    return {
      call: (method, params, sessionId, timeoutMs) => (method === 'Target.attachToTarget' ? this.probeAttach(params as { targetId: string }, timeoutMs) : this.call(method, params, sessionId, timeoutMs)),
      tap: (sessionId, fn) => {
        this.taps.set(sessionId, fn);
        return () => void this.taps.delete(sessionId);
      },
      mayProbe: (targetId) => !this.tabs.owner(targetId) && !this.attaching.has(targetId) && !this.closing.has(targetId),
    };
  }

  private probeAttach(params: { targetId: string }, timeoutMs: number): Promise<any> {
    const { targetId } = params;
    this.probeAttaching.set(targetId, (this.probeAttaching.get(targetId) ?? 0) + 1);
    return this.call('Target.attachToTarget', params, undefined, timeoutMs, (result, late) => {
      const n = (this.probeAttaching.get(targetId) ?? 1) - 1;
      if (n > 0) this.probeAttaching.set(targetId, n);
      else this.probeAttaching.delete(targetId);
      const sessionId = result?.sessionId as string | undefined;
      if (!sessionId) return;
      this.heldTwins.delete(sessionId);
      // The look gave up waiting: a session answered now would stay attached to the page.
      if (late) void this.call('Target.detachFromTarget', { sessionId }, undefined, 5000).catch((e) => ignore(e, 'the session may be gone already'));
    });
  }

  /** Re-reads titles and URLs (discovery events do not always carry the final title). */
  async refresh(): Promise<void> {
    const { targetInfos } = await this.call('Target.getTargets', {}, undefined, 5000);
    for (const t of targetInfos as Protocol.Target.TargetInfo[]) if (t.type === 'page' && !this.closing.has(t.targetId)) this.targets.set(t.targetId, t);
  }

  tabsOf(client: HubClient): Protocol.Target.TargetInfo[] {
    return [...this.targets.values()].filter((t) => this.tabs.owns(client, t.targetId));
  }

  /** Gives a new client of a launched browser the first tab nobody owns (and no DevTools window). */
  claimFreePage(client: HubClient): string | undefined {
    return this.tabs.claimFirstFree(client, this.targets.values(), (t) => !t.url.startsWith('devtools://'));
  }

  owner(targetId: string): HubClient | undefined {
    return this.tabs.owner(targetId);
  }

  /** A tab a direct client opened (or worked in before the daemon restarted) is its own, unless another's. */
  claim(client: HubClient, targetId: string): boolean {
    return this.tabs.claim(client, targetId);
  }

  /** A message from a client. */
  fromClient(client: HubClient, line: string): void {
    let m = COMMAND_HEAD.exec(line);
    if (!m) {
      // Not in our CdpConnection's key order (another client library): normalise once.
      let msg: any;
      try {
        msg = JSON.parse(line);
      } catch {
        return;
      }
      if (typeof msg?.id !== 'number' || typeof msg.method !== 'string') return;
      line = JSON.stringify(msg.sessionId ? { id: msg.id, method: msg.method, sessionId: msg.sessionId, params: msg.params ?? {} } : { id: msg.id, method: msg.method, params: msg.params ?? {} });
      m = COMMAND_HEAD.exec(line);
      if (!m) return;
    }
    const clientId = Number(m[1]);
    const method = m[2];
    const sessionId = m[3];
    if (sessionId) {
      if (this.sessionOwner.get(sessionId) !== client) return client.deliver(cdpError(clientId, `Session with given id not found.`));
      if (method.startsWith('Target.') && !SESSION_TARGET_METHODS.has(method)) return client.deliver(cdpError(clientId, `${method} is not available through the session daemon.`));
      return this.forward(client, clientId, method, line, m[1].length);
    }
    this.browserCommand(client, clientId, method, line, m[1].length);
  }

  private forward(client: HubClient, clientId: number, method: string, line: string, idDigits: number, targetId?: string) {
    if (this._closed) return client.deliver(cdpError(clientId, 'The browser connection is closed.'));
    const id = this.nextId++;
    this.pending.set(id, { client, clientId, method, targetId });
    this.transport.send(`{"id":${id}${line.slice(6 + idDigits)}`);
  }

  private browserCommand(client: HubClient, clientId: number, method: string, line: string, idDigits: number) {
    const reply = (result: object) => client.deliver(JSON.stringify({ id: clientId, result }));
    if (DENIED.has(method)) return client.deliver(cdpError(clientId, `${method} is not available through the session daemon: the browser is shared.`));
    if (!method.startsWith('Target.')) return this.forward(client, clientId, method, line, idDigits);
    const params = (JSON.parse(line).params ?? {}) as Record<string, any>;
    switch (method) {
      case 'Target.setDiscoverTargets':
        client.discover = !!params.discover;
        return reply({});
      case 'Target.setAutoAttach':
        // Not relayed: browser-wide it would pause every client's new targets. The hub pauses new pages
        // itself and hands a client only its own (popups of its tabs); see onNewPage.
        client.autoAttach = !!(params.autoAttach && params.waitForDebuggerOnStart && params.flatten);
        if (!client.autoAttach) return reply({});
        return void this.startAutoAttach().then(() => reply({}));
      case 'Target.getTargets':
        return reply({ targetInfos: this.tabsOf(client) });
      case 'Target.createTarget': {
        // Always in the background of an existing window: a client never takes the person's tab or window
        // focus (Bring to Front is the Sessions view's, through activateTarget). A background tab keeps
        // rendering once its client turns on focus emulation (session/tab.ts).
        const own = JSON.stringify({ id: clientId, method, params: { ...params, newWindow: undefined, focus: undefined, background: true } });
        return this.forward(client, clientId, method, own, String(clientId).length);
      }
      case 'Target.activateTarget':
      case 'Target.attachToTarget':
      case 'Target.closeTarget':
      case 'Target.getTargetInfo':
        if (!this.tabs.owns(client, params.targetId)) return client.deliver(cdpError(clientId, `No target with given id found`));
        if (method === 'Target.activateTarget') client.activeTarget = params.targetId;
        if (method === 'Target.attachToTarget') this.attaching.set(params.targetId, (this.attaching.get(params.targetId) ?? 0) + 1);
        return this.forward(client, clientId, method, line, idDigits, params.targetId);
      case 'Target.detachFromTarget':
        if (this.sessionOwner.get(params.sessionId) !== client) return client.deliver(cdpError(clientId, `No session with given id`));
        return this.forward(client, clientId, method, line, idDigits);
      default:
        return client.deliver(cdpError(clientId, `${method} is not available through the session daemon.`));
    }
  }

  private fromBrowser(line: string) {
    const r = RESPONSE_HEAD.exec(line);
    if (r) return this.answer(Number(r[1]), line, r[1].length);
    const tail = EVENT_TAIL.exec(line);
    if (tail) {
      const tap = this.taps.get(tail[1]);
      if (tap) {
        const msg = JSON.parse(line);
        return tap(msg.method, msg.params ?? {});
      }
      const owner = this.sessionOwner.get(tail[1]);
      if (!owner) return;
      // Iframes and workers auto-attached under a client's page belong to that client.
      if (line.startsWith('{"method":"Target.attachedToTarget"')) this.sessionOwner.set(JSON.parse(line).params.sessionId, owner);
      else if (line.startsWith('{"method":"Target.detachedFromTarget"')) this.sessionOwner.delete(JSON.parse(line).params.sessionId);
      return owner.deliver(line);
    }
    let msg: any;
    try {
      msg = JSON.parse(line);
    } catch {
      return;
    }
    if (typeof msg.method === 'string') this.browserEvent(msg.method, msg.params ?? {}, line);
  }

  private answer(id: number, line: string, idDigits: number) {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (p.resolve) {
      clearTimeout(p.timer);
      const msg = JSON.parse(line);
      if (msg.error) p.reject!(new BrowserAgentError('CDP_ERROR', `${p.method}: ${msg.error.message}`));
      else p.resolve(msg.result ?? {});
      return;
    }
    const client = p.client!;
    if (p.method === 'Target.attachToTarget' && p.targetId) {
      const n = (this.attaching.get(p.targetId) ?? 1) - 1;
      if (n > 0) this.attaching.set(p.targetId, n);
      else this.attaching.delete(p.targetId);
    }
    if (p.method === 'Target.createTarget' || p.method === 'Target.attachToTarget') {
      const result = JSON.parse(line).result;
      if (result?.targetId) {
        this.tabs.assign(client, result.targetId);
        client.activeTarget ??= result.targetId;
      }
      if (result?.sessionId) this.sessionOwner.set(result.sessionId, client);
      const twin = result?.sessionId ? this.heldTwins.get(result.sessionId) : undefined;
      if (twin !== undefined) {
        this.heldTwins.delete(result.sessionId);
        client.deliver(`{"id":${p.clientId}${line.slice(6 + idDigits)}`);
        return client.deliver(twin);
      }
    }
    client.deliver(`{"id":${p.clientId}${line.slice(6 + idDigits)}`);
  }

  private browserEvent(method: string, params: any, line: string) {
    const toOwner = (targetId: string | undefined) => {
      const owner = targetId ? this.tabs.owner(targetId) : undefined;
      if (owner?.discover) owner.deliver(line);
    };
    switch (method) {
      case 'Target.targetCreated': {
        const info = params.targetInfo as Protocol.Target.TargetInfo;
        if (info.type !== 'page') return;
        this.targets.set(info.targetId, info);
        // A popup belongs to whoever owns the page that opened it.
        this.tabs.adoptPopup(info.targetId, info.openerId);
        return toOwner(info.targetId);
      }
      case 'Target.targetInfoChanged': {
        const info = params.targetInfo as Protocol.Target.TargetInfo;
        if (info.type !== 'page' || this.closing.has(info.targetId)) return;
        this.targets.set(info.targetId, info);
        return toOwner(info.targetId);
      }
      case 'Target.targetDestroyed':
      case 'Target.targetCrashed': {
        toOwner(params.targetId);
        if (method === 'Target.targetDestroyed') {
          this.closing.delete(params.targetId);
          this.targets.delete(params.targetId);
          this.tabs.forget(params.targetId);
        }
        return;
      }
      case 'Target.attachedToTarget': {
        const targetId = params.targetInfo?.targetId;
        // The hub's own auto-attach: a new page paused at its start, or one that was open when it began.
        const twin = !params.waitingForDebugger && (this.sessionOwner.has(params.sessionId) || this.attaching.has(targetId));
        if (!twin) return params.waitingForDebugger ? this.onNewPage(params, line) : undefined;
        // The hub's own look attaches this page too: the answers tell whose session this is.
        if (!this.sessionOwner.has(params.sessionId) && this.probeAttaching.has(targetId)) return void this.heldTwins.set(params.sessionId, line);
        // The event twin of a client's attachToTarget (before or after its answer, which records the session too).
        const owner = this.tabs.owner(targetId);
        if (owner) {
          this.sessionOwner.set(params.sessionId, owner);
          owner.deliver(line);
        }
        return;
      }
      case 'Target.detachedFromTarget': {
        const owner = this.sessionOwner.get(params.sessionId);
        this.sessionOwner.delete(params.sessionId);
        owner?.deliver(line);
        return;
      }
      case 'Browser.downloadWillBegin': {
        const owner = this.tabs.owner(params.frameId);
        if (owner) this.downloadOwner.set(params.guid, owner);
        return this.toDownloadOwner(params.guid, line);
      }
      case 'Browser.downloadProgress':
        this.toDownloadOwner(params.guid, line);
        if (params.state !== 'inProgress') this.downloadOwner.delete(params.guid);
        return;
    }
  }

  /**
   * Pauses every new page at its start (only the hub's hold: a direct client's own auto-attach holds it
   * too, until that client lets it run). Through the proxy there is no browser-wide auto-attach for the
   * client, so a popup's first request went out before its guard could attach.
   */
  private startAutoAttach(): Promise<void> {
    this.autoAttach ??= this.call('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true, filter: [{ type: 'page' }, { exclude: true }] }).then(
      () => undefined,
      // The extension relay has no browser-wide auto-attach: nothing is held there.
      () => undefined,
    );
    return this.autoAttach;
  }

  /**
   * A new page, paused. A popup of a client that asked for auto-attach is handed to it in this session,
   * paused, as Chrome would hand it over (its guard lets it run once it intercepts); every other page
   * runs at once.
   */
  private onNewPage(params: Protocol.Target.AttachedToTargetEvent, line: string) {
    const info = params.targetInfo;
    const owner = this.tabs.owner(info.targetId) ?? (info.openerId ? this.tabs.owner(info.openerId) : undefined);
    if (owner?.autoAttach) {
      this.tabs.claim(owner, info.targetId);
      this.sessionOwner.set(params.sessionId, owner);
      return owner.deliver(line);
    }
    // Answered only once every holder has let it run: not waited for.
    void this.call('Runtime.runIfWaitingForDebugger', {}, params.sessionId, 60_000).catch((e) => ignore(e, 'answered only once every holder has let it run: not waited for'));
  }

  /** A download started in a subframe has no known owner: every client hears of it. */
  private toDownloadOwner(guid: string, line: string) {
    const owner = this.downloadOwner.get(guid);
    if (owner) return owner.deliver(line);
    for (const c of this.tabs.clients()) c.deliver(line);
  }

  /**
   * A client is gone: its page sessions are detached (their domains, interceptions and paused
   * requests with them), and in a launched browser its tabs closed.
   */
  async release(client: HubClient, closeTabs: boolean): Promise<void> {
    const tabs = this.tabs.release(client);
    const sessions = [...this.sessionOwner].filter(([, c]) => c === client).map(([s]) => s);
    for (const s of sessions) this.sessionOwner.delete(s);
    for (const t of tabs) {
      // A tab being closed is never handed to the next client (its targetDestroyed comes later,
      // and a targetInfoChanged may come before it).
      if (closeTabs) {
        this.targets.delete(t);
        this.closing.add(t);
      }
    }
    for (const [g, o] of this.downloadOwner) if (o === client) this.downloadOwner.delete(g);
    if (this._closed) return;
    await Promise.all([
      ...sessions.map((sessionId) => this.call('Target.detachFromTarget', { sessionId }, undefined, 5000).catch((e) => ignore(e, 'the session may be gone already'))),
      ...(closeTabs ? tabs.map((targetId) => this.call('Target.closeTarget', { targetId }, undefined, 5000).catch((e) => {
        ignore(e, 'the tab may be gone already: it is no longer closing');
        this.closing.delete(targetId);
      })) : []),
    ]);
  }

  /** The CDP method a client waits on (its current step), if any. */
  currentStep(client: HubClient): string | undefined {
    let step: string | undefined;
    for (const p of this.pending.values()) if (p.client === client) step = p.method;
    return step;
  }

  /** Fails every call the client is waiting on (the Stop button); their late answers are dropped. */
  interrupt(client: HubClient, message: string): void {
    for (const [id, p] of this.pending) {
      if (p.client !== client) continue;
      this.pending.delete(id);
      client.deliver(cdpError(p.clientId!, message));
    }
  }

  close(): void {
    this.transport.close();
    this.closed();
  }

  private closed() {
    if (this._closed) return;
    this._closed = true;
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      if (p.reject) {
        clearTimeout(p.timer);
        p.reject(new BrowserAgentError('BROWSER_DISCONNECTED', 'The browser connection closed before the call finished.'));
      }
    }
    this.onclose?.();
  }
}
