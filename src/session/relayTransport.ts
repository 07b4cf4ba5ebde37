import type { Protocol } from 'devtools-protocol';
import type { CdpTransport } from './transport';
import { TAB_RULES_METHOD, type RelayRequest, type SharedTab } from './relayProtocol';
import { ignore } from '../base/ignore';
import { RelayScreencasts } from './relayScreencasts';

/**
 * The companion Chrome extension as the daemon's relay endpoint sees it (src/daemon/relayServer.ts):
 * requests answered once each, across reconnects of the extension's service worker.
 */
export interface RelayLink {
  request(req: RelayRequest, timeoutMs?: number): Promise<any>;
  /** The tabs the user shares right now. */
  readonly tabs: SharedTab[];
  ontabs?: (tabs: SharedTab[]) => void;
  onevent?: (tabId: number, sessionId: string | undefined, method: string, params: unknown) => void;
  /** The extension is gone for good (did not come back within the grace period, or the relay was turned off). */
  onclose?: () => void;
  readonly closeReason?: string;
}

/** Browser-wide methods that chrome.debugger cannot reach (it sees single tabs only). */
const NOT_RELAYED = 'is not available through the Chrome extension relay (it reaches shared tabs only)';

function targetInfo(t: SharedTab, attached = false): Protocol.Target.TargetInfo {
  return { targetId: t.targetId, type: 'page', title: t.title, url: t.url, attached, canAccessOpener: false, openerId: t.openerTargetId, browserContextId: 'relay' };
}

/**
 * A CDP transport over the companion extension: it makes the tabs the user shared look like a
 * browser's page targets, so the session layer (snapshot, actions, safety, audit) runs unchanged.
 * Browser-level Target.* calls are answered here from the shared-tab list; page-session calls go to
 * the tab's chrome.debugger session. Several CDP sessions on one tab (the tab's own, the request
 * guard's, keepDrawing's) share that one debugger session: each gets the tab's events, except screencast
 * frames, which go only to the sessions casting (relayScreencasts.ts).
 */
export class RelayTransport implements CdpTransport {
  onmessage?: (text: string) => void;
  onclose?: () => void;
  closeReason?: string;
  private closed = false;
  private discover = false;
  private known = new Map<string, SharedTab>();
  /** Our CDP session ids → tab. */
  private readonly sessions = new Map<string, number>();
  /** Child sessions (iframes, workers) chrome.debugger reports → tab. */
  private readonly children = new Map<string, number>();
  private nextSession = 1;
  /** Each session's own screencast on the one debugger session of its tab (keepDrawing's and the live view's). */
  private readonly screencasts = new RelayScreencasts(
    (tabId, method, params) => this.link.request({ op: 'cdp', tabId, method, params }, this.timeoutMs),
    (sessionId, params) => this.emitEvent('Page.screencastFrame', params, sessionId),
  );

  constructor(
    private readonly link: RelayLink,
    private readonly timeoutMs = 30_000,
  ) {
    for (const t of link.tabs) this.known.set(t.targetId, t);
    link.ontabs = (tabs) => this.tabsChanged(tabs);
    link.onevent = (tabId, sessionId, method, params) => this.event(tabId, sessionId, method, params);
    link.onclose = () => {
      this.closeReason ??= link.closeReason;
      this.finish();
    };
  }

  send(text: string): void {
    if (this.closed) throw new Error('The Chrome extension relay is closed.');
    const msg = JSON.parse(text) as { id: number; method: string; sessionId?: string; params?: any };
    this.handle(msg).then(
      (result) => this.emit({ id: msg.id, result: result ?? {} }),
      (e: Error & { cdpCode?: number }) => this.emit({ id: msg.id, error: { code: e.cdpCode ?? -32000, message: e.message } }),
    );
  }

  close(): void {
    this.finish();
  }

  private finish() {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  private emit(msg: object) {
    if (!this.closed) this.onmessage?.(JSON.stringify(msg));
  }

  /** Events carry their sessionId last: the daemon's hub routes on that. */
  private emitEvent(method: string, params: unknown, sessionId?: string) {
    this.emit(sessionId ? { method, params, sessionId } : { method, params });
  }

  private tab(targetId: unknown): SharedTab {
    const t = typeof targetId === 'string' ? this.known.get(targetId) : undefined;
    if (!t) throw Object.assign(new Error('No target with given id found'), { cdpCode: -32602 });
    return t;
  }

  private async handle(msg: { method: string; sessionId?: string; params?: any }): Promise<unknown> {
    const { method, sessionId } = msg;
    const params = msg.params ?? {};
    if (sessionId) {
      const tabId = this.sessions.get(sessionId) ?? this.children.get(sessionId);
      if (tabId === undefined) throw Object.assign(new Error('Session with given id not found.'), { cdpCode: -32001 });
      const child = this.children.has(sessionId) ? sessionId : undefined;
      // A Target.detachFromTarget sent on a page session detaches a child of it.
      if (method === 'Target.detachFromTarget' && params.sessionId && this.children.has(params.sessionId)) this.children.delete(params.sessionId);
      // The request guard's rules for the tab (Chrome's own request blocking, set by the extension).
      if (!child && method === 'Page.startScreencast') return this.screencasts.start(tabId, sessionId, params);
      if (!child && method === 'Page.stopScreencast') return this.screencasts.stop(tabId, sessionId);
      if (!child && method === 'Page.screencastFrameAck') return this.screencasts.ack(tabId, sessionId, params.sessionId);
      if (method === TAB_RULES_METHOD && !child) return this.link.request({ op: 'rules', tabId, rules: Array.isArray(params.rules) ? params.rules : [], intercepting: !!params.intercepting }, this.timeoutMs);
      return this.link.request({ op: 'cdp', tabId, sessionId: child, method, params }, this.timeoutMs);
    }
    switch (method) {
      case 'Target.setDiscoverTargets':
        this.discover = !!params.discover;
        return {};
      case 'Target.getTargets':
        return { targetInfos: [...this.known.values()].map((t) => targetInfo(t)) };
      case 'Target.getTargetInfo':
        return { targetInfo: targetInfo(this.tab(params.targetId)) };
      case 'Target.setAutoAttach':
        // Browser-wide auto-attach has no chrome.debugger equivalent; page sessions auto-attach their own children.
        return {};
      case 'Target.attachToTarget': {
        const t = this.tab(params.targetId);
        const sessionId = `relay-${t.tabId}-${this.nextSession++}`;
        this.sessions.set(sessionId, t.tabId);
        queueMicrotask(() => this.emitEvent('Target.attachedToTarget', { sessionId, targetInfo: targetInfo(t, true), waitingForDebugger: false }));
        return { sessionId };
      }
      case 'Target.detachFromTarget': {
        const tabId = this.sessions.get(params.sessionId);
        if (tabId === undefined) throw new Error('No session with given id');
        this.sessions.delete(params.sessionId);
        // As a real detach ends the session's screencast; the others' go on.
        await this.screencasts.stop(tabId, params.sessionId).catch((e) => ignore(e, 'the tab may be closed; its screencast went with it'));
        this.emitEvent('Target.detachedFromTarget', { sessionId: params.sessionId, targetId: this.byTabId(tabId)?.targetId });
        // The last session of the tab gone: what a real detach undoes (paused requests, paused children).
        if (![...this.sessions.values()].includes(tabId)) await this.release(tabId);
        return {};
      }
      case 'Target.createTarget': {
        const { targetId } = await this.link.request({ op: 'open', url: params.url || 'about:blank', newWindow: !!params.newWindow, background: params.background !== false }, this.timeoutMs);
        return { targetId };
      }
      case 'Target.closeTarget':
        await this.link.request({ op: 'close', tabId: this.tab(params.targetId).tabId }, this.timeoutMs);
        return { success: true };
      case 'Target.activateTarget':
        await this.link.request({ op: 'activate', tabId: this.tab(params.targetId).tabId }, this.timeoutMs);
        return {};
      case 'Browser.setDownloadBehavior':
        // Downloads in the user's Chrome follow the user's own settings (chrome.debugger has no Browser domain).
        return {};
      case 'Browser.getVersion':
        return { protocolVersion: '1.3', product: 'Chrome (extension relay)', revision: '', userAgent: '', jsVersion: '' };
      default:
        throw Object.assign(new Error(`${method} ${NOT_RELAYED}`), { cdpCode: -32601 });
    }
  }

  private async release(tabId: number) {
    await Promise.all([
      ...['Fetch.disable', 'Target.setAutoAttach'].map((m) =>
        this.link.request({ op: 'cdp', tabId, method: m, params: m === 'Target.setAutoAttach' ? { autoAttach: false, waitForDebuggerOnStart: false, flatten: true } : {} }, 5000).catch((e) => ignore(e, 'the tab may be closed; its debugger went with it')),
      ),
      // No session works in the tab any more: its request rules go too.
      this.link.request({ op: 'rules', tabId, rules: [], intercepting: false }, 5000).catch((e) => ignore(e, 'the tab may be closed; its rules went with it')),
    ]);
    for (const [s, t] of this.children) if (t === tabId) this.children.delete(s);
  }

  private byTabId(tabId: number): SharedTab | undefined {
    for (const t of this.known.values()) if (t.tabId === tabId) return t;
    return undefined;
  }

  private event(tabId: number, child: string | undefined, method: string, params: any) {
    if (child) {
      if (method === 'Target.detachedFromTarget' && params?.sessionId) this.children.delete(params.sessionId);
      if (method === 'Target.attachedToTarget' && params?.sessionId) this.children.set(params.sessionId, tabId);
      return this.emitEvent(method, params, child);
    }
    if (method === 'Target.attachedToTarget' && params?.sessionId) this.children.set(params.sessionId, tabId);
    if (method === 'Target.detachedFromTarget' && params?.sessionId) this.children.delete(params.sessionId);
    if (method === 'Page.screencastFrame') return this.screencasts.frame(tabId, params);
    for (const [sessionId, t] of this.sessions) if (t === tabId) this.emitEvent(method, params, sessionId);
  }

  private tabsChanged(tabs: SharedTab[]) {
    const next = new Map(tabs.map((t) => [t.targetId, t]));
    for (const [id, old] of this.known) {
      if (next.has(id)) continue;
      // Unshared or closed: its sessions end at once, as when a real target goes away.
      for (const [sessionId, tabId] of [...this.sessions]) {
        if (tabId !== old.tabId) continue;
        this.sessions.delete(sessionId);
        this.emitEvent('Target.detachedFromTarget', { sessionId, targetId: id });
      }
      for (const [s, t] of this.children) if (t === old.tabId) this.children.delete(s);
      this.screencasts.forget(old.tabId);
      if (this.discover) this.emitEvent('Target.targetDestroyed', { targetId: id });
    }
    const before = this.known;
    this.known = next;
    if (!this.discover) return;
    for (const t of tabs) {
      const old = before.get(t.targetId);
      if (!old) this.emitEvent('Target.targetCreated', { targetInfo: targetInfo(t) });
      else if (old.url !== t.url || old.title !== t.title) this.emitEvent('Target.targetInfoChanged', { targetInfo: targetInfo(t) });
    }
  }
}
