import { EventEmitter } from 'node:events';
import { chooseAttachTab, connectionLink, probePages } from './tabChoice';
import { worldsInUse, worldsReleased } from './worlds';
import type { Protocol } from 'devtools-protocol';
import { BrowserAgentError } from '../base/errors';
import type { CdpConnection } from './cdp';
import type { LaunchOptions } from './launcher';
import { localProvider, type BrowserHandle, type SessionKind } from './provider';
import { LandedPageCheck } from './landedPageCheck';
import { RequestGuard } from './requestGuard';
import type { RequestPolicy } from './requestRules';
import { Tab } from './tab';
import { ignore } from '../base/ignore';

export type { SessionKind } from './provider';

export interface TabInfo {
  id: string;
  url: string;
  title: string;
  active: boolean;
  openerId?: string;
}

export interface SessionOptions {
  cdpTimeoutMs?: number;
  /** Attach mode: use the page already open (default) or always open our own tab. */
  attachTab?: 'existing' | 'new';
  /** Origin rules enforced at the request in every target (see requestGuard.ts). */
  requestPolicy?: RequestPolicy;
}

/**
 * One browser over one CDP connection: its page targets as tabs, the active tab, popups that
 * become tabs, and the lifecycle (a launched browser is killed on close; an attached one is only
 * detached from).
 */
export class BrowserSession extends EventEmitter {
  private readonly tabMap = new Map<string, Tab>();
  private activeId?: string;
  /** The tabs this session worked in when its connection was lost, for the session that replaces it. */
  tabsAtLoss?: { tabs: string[]; active?: string };
  private closing = false;
  readonly headless: boolean;
  /** Fails requests the safety policy refuses, in every target, before they are sent. */
  readonly guard: RequestGuard;
  /** The second line: leaves (or closes) a tab whose main frame shows a blocked origin, whoever led it there. */
  readonly landedCheck: LandedPageCheck;
  /** Tabs being closed by closeTab (their targetDestroyed event may come before its answer). */
  private readonly closingTabs = new Set<string>();
  private lostActive?: { title: string; url: string };
  /** Tabs this session opened itself (newTab, replaceTab). */
  private readonly created = new Set<string>();

  readonly connection: CdpConnection;
  readonly kind: SessionKind;
  private holdsWorlds = false;
  readonly endpoint: string;

  private constructor(private readonly handle: BrowserHandle) {
    super();
    this.setMaxListeners(0);
    const connection = (this.connection = handle.connection);
    this.kind = handle.kind;
    // Our worlds in a browser others attach to mark its pages as an agent's until this session closes (worlds.ts).
    if (handle.kind !== 'launched') {
      worldsInUse();
      this.holdsWorlds = true;
    }
    this.endpoint = handle.endpoint;
    this.headless = handle.headless;
    // In a shared browser the guard intercepts only our own tabs: others follow their own client's policy.
    this.guard = new RequestGuard(connection, handle.scope);
    this.landedCheck = new LandedPageCheck(connection, this.guard, { inHand: (id) => this.inHand(id), ours: (id) => this.created.has(id) });
    connection.on('disconnected', () => this.onDisconnected());
    connection.on('Target.targetCreated', (p: Protocol.Target.TargetCreatedEvent, sid?: string) => !sid && this.onTargetCreated(p.targetInfo));
    connection.on('Target.targetInfoChanged', (p: Protocol.Target.TargetInfoChangedEvent, sid?: string) => !sid && this.onTargetInfoChanged(p.targetInfo));
    connection.on('Target.targetDestroyed', (p: Protocol.Target.TargetDestroyedEvent, sid?: string) => !sid && this.onTargetDestroyed(p.targetId));
    connection.on('Target.targetCrashed', (p: Protocol.Target.TargetCrashedEvent, sid?: string) => {
      if (sid) return;
      const tab = this.tabMap.get(p.targetId);
      if (tab) {
        tab.crashed = true;
        this.emit('tabCrashed', tab);
      }
    });
  }

  /** Launches a browser of our own, in this process. */
  static async launch(opts: LaunchOptions & SessionOptions = {}): Promise<BrowserSession> {
    return BrowserSession.open(await localProvider.launch(opts, opts), 'existing', opts.requestPolicy);
  }

  /** Attaches to a running browser by http://host:port, host:port, port or ws(s):// URL. */
  static async attach(endpoint: string, opts: SessionOptions & { headers?: Record<string, string> } = {}): Promise<BrowserSession> {
    return BrowserSession.open(await localProvider.attach(endpoint, opts), opts.attachTab ?? 'existing', opts.requestPolicy);
  }

  /** A session over a connection any provider made (local, the session daemon, a relay). */
  static async open(handle: BrowserHandle, attachTab: 'existing' | 'new' = 'existing', requestPolicy?: RequestPolicy): Promise<BrowserSession> {
    const session = new BrowserSession(handle);
    try {
      await session.applyPolicy(requestPolicy);
      await session.init(attachTab);
    } catch (e) {
      session.releaseWorlds();
      await handle.close().catch((e) => ignore(e, 'closing after a failed start is best effort; the start error is rethrown'));
      throw e;
    }
    return session;
  }

  private async init(attachTab: 'existing' | 'new') {
    await this.connection.send('Target.setDiscoverTargets', { discover: true });
    const { targetInfos } = await this.connection.send('Target.getTargets');
    for (const info of targetInfos) this.onTargetCreated(info, false);
    const pages = [...this.tabMap.values()];
    // Back in the tab the lost session worked in (handed back by the daemon), whatever attachTab says.
    if (this.handle.resumeTab && this.tabMap.has(this.handle.resumeTab)) return void (await this.selectTab(this.handle.resumeTab));
    // Our own tab opens in the background of the person's window (newTab): it never takes their focus.
    if (attachTab === 'new' || pages.length === 0) return void (await this.newTab('about:blank'));
    // The page the user is looking at, even when another client (DevTools, a tool) is attached to it.
    const chosen = chooseAttachTab(await probePages(connectionLink(this.connection)).catch((e) => ignore(e, 'no page read: the first page is chosen', [])));
    await this.selectTab(chosen && this.tabMap.has(chosen) ? chosen : pages[0].targetId);
  }

  /**
   * Sets (or clears) the origin rules; resolves once every target intercepts accordingly and every
   * page of ours that shows a now-blocked origin has been left.
   */
  async applyPolicy(policy: RequestPolicy | undefined): Promise<void> {
    await this.guard.setPolicy(policy);
    await this.landedCheck.idle();
  }

  /**
   * Pages the second line acts on: all of ours in a browser we launched or share through the
   * daemon; in a browser we attached to, the tabs the agent used or opened and popups (a person's
   * other tabs are left alone; the guard still stops their requests).
   */
  private inHand(id: string): boolean {
    const tab = this.tabMap.get(id);
    if (!tab) return false;
    return this.kind === 'launched' || !!this.handle.scope || tab.attached || !!tab.openerId || this.created.has(id);
  }

  /** Shared with other clients through the session daemon (or a relay): only our own tabs are ours. */
  get shared(): boolean {
    // The proxy transport keeps the scope in the daemon, so its handle has a session id but no scope.
    return !!this.handle.scope || !!this.handle.sessionId;
  }

  /**
   * Whether a download is ours: any in a browser we launched for ourselves; in a shared browser one
   * that started in a frame of our tabs; in a browser we attached to, one from a tab the agent works in
   * (a person's own downloads are theirs).
   */
  downloadIsOurs(frameId: string): boolean {
    if (this.kind === 'launched' && !this.shared) return true;
    for (const tab of this.tabMap.values()) if (tab.hasFrame(frameId)) return this.inHand(tab.targetId);
    return false;
  }

  get connected(): boolean {
    return !this.connection.closed;
  }

  get pid(): number | undefined {
    return this.handle.pid;
  }

  get userDataDir(): string | undefined {
    return this.handle.userDataDir;
  }

  /** The session id the daemon (or relay) gave this client; absent for a local browser. */
  get sharedSessionId(): string | undefined {
    return this.handle.sessionId;
  }

  /** A remote-browser engine's browser, made for this session: when the connection goes, so does the browser. */
  get pool(): boolean {
    return !!this.handle.pool;
  }

  tabs(): TabInfo[] {
    return [...this.tabMap.values()].map((t) => ({ id: t.targetId, url: t.url, title: t.title, active: t.targetId === this.activeId, openerId: t.openerId }));
  }

  getTab(id: string): Tab {
    const tab = this.tabMap.get(id);
    if (!tab) throw new BrowserAgentError('TAB_CLOSED', `No tab with id ${id}.`, 'List tabs with browser_tabs.');
    return tab;
  }

  /** The tab actions go to; opens one if the browser has none left. */
  async activeTab(): Promise<Tab> {
    this.assertConnected();
    let tab = this.activeId ? this.tabMap.get(this.activeId) : undefined;
    if (!tab) {
      const first = this.tabMap.values().next().value as Tab | undefined;
      tab = first ?? (await this.newTab());
      this.activeId = tab.targetId;
    }
    await tab.session();
    return tab;
  }

  /**
   * Opens a tab of ours, in the background: a person may be using this browser, and a tab opened in front
   * would hide theirs and take their window's focus. A background tab still renders and runs its timers at
   * full speed: Tab turns on focus emulation and keeps it drawing (tab.ts, keepDrawing.ts).
   */
  async newTab(url = 'about:blank'): Promise<Tab> {
    this.assertConnected();
    // Guarded: open on about:blank and send the tab on only once its requests are intercepted.
    const later = this.guard.active && url !== 'about:blank' ? url : undefined;
    const { targetId } = await this.connection.send('Target.createTarget', { url: later ? 'about:blank' : url, background: true });
    this.created.add(targetId);
    this.handle.scope?.add(targetId);
    this.handle.onTabCreated?.(targetId);
    let tab = this.tabMap.get(targetId);
    if (!tab) {
      tab = this.addTab({ targetId, url, title: '', type: 'page', attached: false, canAccessOpener: false } as Protocol.Target.TargetInfo);
    }
    const selected = await this.selectTab(targetId);
    if (later) {
      await this.guard.guarded(targetId);
      await (await selected.session()).send('Page.navigate', { url: later });
    }
    return selected;
  }

  /**
   * Makes `id` the tab actions go to. Only ours: the browser's selected tab and focused window stay where
   * the person left them (the Sessions view's Bring to Front, the daemon's `focus`, changes them when asked).
   */
  async selectTab(id: string): Promise<Tab> {
    const tab = this.getTab(id);
    await tab.session();
    if (this.activeId !== id) {
      this.activeId = id;
      this.emit('activeTabChanged', tab);
    }
    return tab;
  }

  /**
   * Bring to Front, when a person asks: selects the tab actions go to in its window and raises the window.
   * Never done on its own (agents work in background tabs beside the person); works in every mode.
   */
  async bringToFront(): Promise<Tab> {
    const tab = await this.activeTab();
    await this.connection.send('Target.activateTarget', { targetId: tab.targetId });
    return tab;
  }

  async closeTab(id: string): Promise<void> {
    const tab = this.getTab(id);
    this.closingTabs.add(id);
    try {
      await this.connection.send('Target.closeTarget', { targetId: id });
      this.onTargetDestroyed(id);
    } finally {
      this.closingTabs.delete(id);
    }
    void tab;
  }

  /**
   * The active tab, when something other than this session closed it (the page's own window.close(), the
   * user, another client) since the last call: what it showed and which tab is active now, once.
   */
  takeLostActive(): { title: string; url: string; now?: Tab } | undefined {
    const lost = this.lostActive;
    this.lostActive = undefined;
    return lost && { ...lost, now: this.activeId ? this.tabMap.get(this.activeId) : undefined };
  }

  /**
   * Opens a fresh tab in place of `id` and closes that one from the browser target (which needs
   * nothing from its renderer): the way out of a hung page when its renderer cannot be stopped.
   */
  async replaceTab(id: string): Promise<Tab> {
    const old = this.getTab(id);
    const wasActive = this.activeId === id;
    const { targetId } = await this.connection.send('Target.createTarget', { url: 'about:blank', background: true });
    this.created.add(targetId);
    this.handle.scope?.add(targetId);
    this.handle.onTabCreated?.(targetId);
    const fresh = this.tabMap.get(targetId) ?? this.addTab({ targetId, url: 'about:blank', title: '', type: 'page', attached: false, canAccessOpener: false } as Protocol.Target.TargetInfo);
    fresh.openerId = old.openerId;
    this.closingTabs.add(id);
    await this.connection.send('Target.closeTarget', { targetId: id }, undefined, 5000).catch((e) => ignore(e, 'the tab may be gone already'));
    this.onTargetDestroyed(id);
    this.closingTabs.delete(id);
    if (wasActive) await this.selectTab(targetId);
    return fresh;
  }

  /** Launched: close the browser and kill its process group. Attached: only detach. Shared: end our session. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.landedCheck.dispose();
    this.guard.dispose();
    this.releaseWorlds();
    await this.handle.close();
    for (const tab of this.tabMap.values()) tab.dispose();
    this.tabMap.clear();
  }

  private releaseWorlds() {
    if (!this.holdsWorlds) return;
    this.holdsWorlds = false;
    worldsReleased();
  }

  private assertConnected() {
    if (this.connection.closed) {
      throw new BrowserAgentError('BROWSER_DISCONNECTED', 'The browser is no longer connected.', 'It will be relaunched or reattached on the next action.');
    }
  }

  private addTab(info: Protocol.Target.TargetInfo): Tab {
    const tab = new Tab(this.connection, info.targetId, { url: info.url, title: info.title, openerId: info.openerId }, (child) => this.guard.childReady(child), () => this.guard.childFilter());
    tab.on('infoChanged', () => this.emit('tabChanged', tab));
    // A tab the agent takes up (attach mode: a person's tab) is looked at against the rules then.
    tab.on('attached', () => this.landedCheck.checkNow(info.targetId));
    this.tabMap.set(info.targetId, tab);
    return tab;
  }

  private onTargetCreated(info: Protocol.Target.TargetInfo, announce = true) {
    if (info.type !== 'page' || this.tabMap.has(info.targetId)) return;
    // In a shared browser, other clients' tabs do not exist for us.
    if (this.handle.scope && !this.handle.scope.owns(info)) return;
    // Ignore DevTools windows and the browser's own internal pages when attached to a user's Chrome.
    if (info.url.startsWith('devtools://')) return;
    const tab = this.addTab(info);
    if (!announce) return;
    this.emit('tabOpened', tab);
    // A popup or window.open from the tab we work in becomes the tab we work in, as for a person.
    if (info.openerId && info.openerId === this.activeId) {
      this.activeId = info.targetId;
      this.emit('activeTabChanged', tab);
      this.emit('popup', tab);
    }
  }

  private onTargetInfoChanged(info: Protocol.Target.TargetInfo) {
    const tab = this.tabMap.get(info.targetId);
    if (!tab) return;
    tab.url = info.url;
    tab.title = info.title;
    this.emit('tabChanged', tab);
  }

  private onTargetDestroyed(id: string) {
    const tab = this.tabMap.get(id);
    if (!tab) return;
    if (this.activeId === id && !this.closingTabs.has(id)) this.lostActive = { title: tab.title, url: tab.url };
    this.tabMap.delete(id);
    this.created.delete(id);
    tab.dispose();
    if (this.activeId === id) {
      // Fall back to the opener, else the most recently added tab.
      const next = (tab.openerId && this.tabMap.get(tab.openerId)) || [...this.tabMap.values()].pop();
      this.activeId = next?.targetId;
      if (next) this.emit('activeTabChanged', next);
    }
    this.emit('tabClosed', id);
  }

  private onDisconnected() {
    if (!this.closing) this.tabsAtLoss = { tabs: [...this.tabMap.keys()], active: this.activeId };
    for (const tab of this.tabMap.values()) tab.dispose();
    this.tabMap.clear();
    if (!this.closing) {
      // The browser crashed, was closed by the user, or the remote endpoint went away.
      if (this.handle.pid) this.handle.close().catch((e) => ignore(e, 'the browser is gone; closing its process is best effort'));
      this.emit('disconnected');
    } else {
      this.emit('closed');
    }
  }
}
