// The service worker: relays CDP between the tabs the user shares (chrome.debugger) and the Browser
// Agent session daemon (a WebSocket on 127.0.0.1). Chrome may stop this worker at any time: what
// must survive is in chrome.storage (pairing in .local; shared tabs in .session), listeners are registered at the top level so any event wakes it, and it reconnects
// with backoff. The debugger stays attached while the worker is stopped.
import { parsePairingCode, RELAY_PROTOCOL, RELAY_TOKEN_PREFIX, type DaemonRelayMessage, type ExtensionMessage, type RelayRequest, type RelaySessionView, type SharedTab } from '../../src/session/relayProtocol';
import { Journal, type Answer } from './journal';
import { RequestRules } from './requestRules';

const VERSION = chrome.runtime.getManifest().version;
const KEEPALIVE_MS = 20_000;
const MAX_BACKOFF_MS = 10_000;
/** Events kept while the socket is down (the worker just woke up): a bounded amount. */
const MAX_QUEUED = 5000;
/** Browser and extension pages (this side panel too) are never shared. */
const RESTRICTED = /^(chrome|chrome-extension|chrome-untrusted|edge|devtools|view-source|chrome-search):/;

export type ConnectionState = 'not paired' | 'connecting' | 'connected' | 'disconnected';

export interface PanelState {
  state: ConnectionState;
  paired: boolean;
  port?: number;
  lastError?: string;
  shared: SharedTab[];
  sessions: RelaySessionView[];
  /** Shared tabs whose popups Chrome holds to a session's origin rules (requestRules.ts). */
  guarded: number[];
}

const journal = new Journal();
/** Chrome's own request blocking for popups of shared tabs (the guard's rules; see requestRules.ts). */
const requestRules = new RequestRules();
/** How long the daemon may be away before the rules its sessions set count as stale (its own grace, RELAY_GRACE_MS). */
const RULES_GRACE_MS = 60_000;
requestRules.onchange = () => void notifyPanels();
/** tabId → what we know of the shared tab; persisted as the list of tab ids. */
const shared = new Map<number, SharedTab>();
let ws: WebSocket | undefined;
let state: ConnectionState = 'disconnected';
let lastError: string | undefined;
let backoff = 500;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let keepalive: ReturnType<typeof setInterval> | undefined;
let sessions: RelaySessionView[] = [];
const queued: string[] = [];
const panels = new Set<chrome.runtime.Port>();

// ---- persistence ----

async function pairing(): Promise<{ port: number; token: string } | undefined> {
  const { pairingCode } = await chrome.storage.local.get('pairingCode');
  return typeof pairingCode === 'string' ? parsePairingCode(pairingCode) : undefined;
}

function persistShared(): Promise<void> {
  return chrome.storage.session.set({ shared: [...shared.values()] });
}

type DebuggerEvent = [chrome.debugger.Debuggee, string, object | undefined];
/** Debugger events that came before the shared tabs were restored: handled, in order, once they are. */
let early: DebuggerEvent[] | undefined = [];

/** After a wake-up: the tabs shared before, where the debugger is still attached. */
const restored = (async () => {
  try {
    const { shared: list } = await chrome.storage.session.get('shared');
    const attached = new Set((await chrome.debugger.getTargets()).filter((t) => t.attached && t.tabId !== undefined).map((t) => t.tabId));
    for (const t of (list as SharedTab[] | undefined) ?? []) if (attached.has(t.tabId)) shared.set(t.tabId, t);
  } finally {
    // A popup's Page.windowOpen wakes this worker and comes before the restore: dropped (its tab not yet
    // known as shared), the popup went unclaimed and was counted the person's (docs/safety.md, wake-up race).
    const events = early ?? [];
    early = undefined;
    for (const e of events) onDebuggerEvent(...e);
  }
  // Rules of tabs no longer shared (the debugger went while this worker was stopped) are stale.
  await requestRules.keepOnly(shared.keys()).catch(() => undefined);
  await updateBadges();
})();

// ---- the socket ----

function send(msg: ExtensionMessage): void {
  const text = JSON.stringify(msg);
  if (ws?.readyState === WebSocket.OPEN) ws.send(text);
  else if (msg.t === 'event' && queued.length < MAX_QUEUED) queued.push(text);
}

function setState(s: ConnectionState, error?: string) {
  state = s;
  if (error !== undefined) lastError = error;
  void notifyPanels();
}

let connecting: Promise<void> | undefined;
/** One connection attempt at a time (the alarm, the panel and a pairing may all ask at once). */
function connect(): Promise<void> {
  connecting ??= open().finally(() => (connecting = undefined));
  return connecting;
}

async function open(): Promise<void> {
  await restored;
  if (ws && ws.readyState <= WebSocket.OPEN) return;
  clearTimeout(retryTimer);
  const p = await pairing();
  if (!p) return setState('not paired');
  setState('connecting');
  let socket: WebSocket;
  try {
    socket = new WebSocket(`ws://127.0.0.1:${p.port}/`, [RELAY_PROTOCOL, `${RELAY_TOKEN_PREFIX}${p.token}`]);
  } catch (e) {
    return retry(String(e));
  }
  ws = socket;
  socket.onopen = () => {
    backoff = 500;
    socket.send(JSON.stringify({ t: 'hello', v: 1, version: VERSION, tabs: [...shared.values()] } satisfies ExtensionMessage));
    for (const text of queued.splice(0)) socket.send(text);
    clearInterval(keepalive);
    void chrome.storage.session.remove('relayDownSince');
    // Socket traffic keeps the worker alive; a ping every 20 s keeps it so while idle and paired.
    keepalive = setInterval(() => send({ t: 'ping' }), KEEPALIVE_MS);
    setState('connected', '');
  };
  socket.onmessage = (ev) => void onMessage(JSON.parse(String(ev.data)) as DaemonRelayMessage);
  socket.onclose = (ev) => {
    if (ws !== socket) return;
    ws = undefined;
    clearInterval(keepalive);
    sessions = [];
    void noteRelayDown();
    // "New Code" in VS Code: the stored code is void; wait for the new one instead of knocking with the old.
    if (ev.code === 4001) return void chrome.storage.local.remove('pairingCode').then(() => setState('not paired', ev.reason));
    retry(ev.code === 1006 ? 'Browser Agent is not running, or the pairing code is wrong.' : `Closed (${ev.code}${ev.reason ? `: ${ev.reason}` : ''}).`);
  };
}

function retry(error: string) {
  setState('disconnected', error);
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => void connect(), backoff);
  backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
}

async function onMessage(msg: DaemonRelayMessage) {
  switch (msg.t) {
    case 'welcome':
      journal.setEpoch(msg.epoch);
      // Rules set by the sessions of a daemon that is gone are stale.
      return void requestRules.setEpoch(msg.epoch).catch(() => undefined);
    case 'sessions':
      sessions = msg.sessions;
      return void notifyPanels();
    case 'req': {
      const answer = await journal.run(msg.rid, () => execute(msg));
      send({ t: 'result', rid: msg.rid, ...answer });
      return;
    }
  }
}

// ---- requests ----

function cdpError(e: unknown): Answer {
  const text = e instanceof Error ? e.message : String(e);
  try {
    const parsed = JSON.parse(text) as { code?: number; message?: string };
    if (parsed && typeof parsed.message === 'string') return { error: { code: parsed.code, message: parsed.message } };
  } catch {
    /* not a CDP error object */
  }
  return { error: { message: text } };
}

async function execute(req: RelayRequest): Promise<Answer> {
  try {
    switch (req.op) {
      case 'cdp': {
        if (!shared.has(req.tabId)) return { error: { code: -32001, message: 'Session with given id not found (the tab is no longer shared).' } };
        const target: chrome.debugger.DebuggerSession = req.sessionId ? { tabId: req.tabId, sessionId: req.sessionId } : { tabId: req.tabId };
        return { result: (await chrome.debugger.sendCommand(target, req.method, req.params as object | undefined)) ?? {} };
      }
      case 'open': {
        // In the background unless asked otherwise: the person keeps their tab and their window's focus.
        const front = req.background === false;
        const tab = req.newWindow
          ? (await chrome.windows.create({ url: req.url, focused: front }))?.tabs?.[0]
          : await chrome.tabs.create({ url: req.url, active: front });
        if (tab?.id === undefined) return { error: { message: 'Chrome did not open the tab.' } };
        const t = await share(tab.id, req.openerTabId !== undefined ? shared.get(req.openerTabId)?.targetId : undefined);
        return { result: { targetId: t.targetId } };
      }
      case 'close':
        await chrome.tabs.remove(req.tabId);
        return { result: {} };
      case 'rules': {
        const t = shared.get(req.tabId);
        if (!t) return { error: { code: -32001, message: 'Session with given id not found (the tab is no longer shared).' } };
        try {
          await requestRules.set(req.tabId, { rules: req.rules, intercepting: req.intercepting }, [t.url, ...(await frameUrls(req.tabId))]);
        } catch (e) {
          // The guard's interception still holds in shared tabs; the side panel says what is missing.
          setState(state, `Chrome did not take the request rules (popups of shared tabs are not held before their first request): ${e instanceof Error ? e.message : String(e)}`);
          throw e;
        }
        return { result: {} };
      }
      case 'activate': {
        const tab = await chrome.tabs.update(req.tabId, { active: true });
        if (tab?.windowId !== undefined) await chrome.windows.update(tab.windowId, { focused: true }).catch(() => undefined);
        return { result: {} };
      }
    }
  } catch (e) {
    return cdpError(e);
  }
}

// ---- sharing ----

async function targetIdOf(tabId: number): Promise<string> {
  const t = (await chrome.debugger.getTargets()).find((x) => x.tabId === tabId);
  if (!t) throw new Error(`Tab ${tabId} has no debugging target.`);
  return t.id;
}

function describe(tab: chrome.tabs.Tab, targetId: string, opener?: string): SharedTab {
  return { tabId: tab.id!, targetId, url: tab.url ?? tab.pendingUrl ?? '', title: tab.title ?? '', active: !!tab.active, openerTargetId: opener };
}

function announce() {
  send({ t: 'tabs', tabs: [...shared.values()] });
  void notifyPanels();
  void updateBadges();
}

/** Shares a tab: attaches the debugger (Chrome shows its "is debugging this browser" bar). */
async function share(tabId: number, openerTargetId?: string): Promise<SharedTab> {
  await restored;
  const existing = shared.get(tabId);
  if (existing) return existing;
  const tab = await chrome.tabs.get(tabId);
  const url = tab.pendingUrl || tab.url || '';
  if (RESTRICTED.test(url)) throw new Error(`Browser Agent does not share ${url}.`);
  const already = (await chrome.debugger.getTargets()).find((t) => t.tabId === tabId)?.attached;
  if (!already) await chrome.debugger.attach({ tabId }, '1.3');
  let t = describe(tab, await targetIdOf(tabId), openerTargetId);
  shared.set(tabId, t);
  // URL and title changes while we attached went unseen (onUpdated ignores tabs not yet shared):
  // a popup shared while it loads would otherwise keep an empty URL and title for good.
  const now = await chrome.tabs.get(tabId).catch(() => undefined);
  if (now && shared.get(tabId) === t) {
    t = describe(now, t.targetId, openerTargetId);
    shared.set(tabId, t);
  }
  await persistShared();
  announce();
  return shared.get(tabId) ?? t;
}

/** The URLs of a shared tab's frames (the sites popups it opens may start from). */
async function frameUrls(tabId: number): Promise<string[]> {
  type Tree = { frame: { url: string }; childFrames?: Tree[] };
  const walk = (t: Tree): string[] => [t.frame.url, ...(t.childFrames ?? []).flatMap(walk)];
  try {
    const { frameTree } = (await chrome.debugger.sendCommand({ tabId }, 'Page.getFrameTree')) as { frameTree: Tree };
    return walk(frameTree);
  } catch {
    return [];
  }
}

/** The socket closed: when it stays closed longer than the daemon waits, the rules its sessions set go (see the alarm). */
async function noteRelayDown(): Promise<void> {
  const { relayDownSince } = await chrome.storage.session.get('relayDownSince');
  if (typeof relayDownSince !== 'number') await chrome.storage.session.set({ relayDownSince: Date.now() });
}

async function dropStaleRules(): Promise<void> {
  const { relayDownSince } = await chrome.storage.session.get('relayDownSince');
  if (typeof relayDownSince === 'number' && Date.now() - relayDownSince > RULES_GRACE_MS && ws?.readyState !== WebSocket.OPEN) await requestRules.clear();
}

/** Stops sharing at once: the debugger detaches and the agent's sessions on the tab end. */
async function unshare(tabId: number): Promise<void> {
  await restored;
  await requestRules.drop(tabId).catch(() => undefined);
  if (!shared.delete(tabId)) return;
  await persistShared();
  announce();
  await chrome.debugger.detach({ tabId }).catch(() => undefined);
}

async function updateBadges() {
  const tabs = await chrome.tabs.query({});
  await Promise.all(
    tabs.map((t) =>
      t.id === undefined
        ? undefined
        : Promise.all([
            chrome.action.setBadgeText({ tabId: t.id, text: shared.has(t.id) ? 'ON' : '' }),
            chrome.action.setTitle({ tabId: t.id, title: shared.has(t.id) ? 'Stop sharing this tab with Browser Agent' : 'Share this tab with Browser Agent' }),
          ]).catch(() => undefined),
    ),
  );
}

// ---- side panel ----

function panelState(): PanelState {
  return { state, paired: state !== 'not paired', lastError, shared: [...shared.values()], sessions, guarded: requestRules.guardedTabs() };
}

async function notifyPanels() {
  const p = await pairing();
  const s = { ...panelState(), paired: !!p, port: p?.port };
  for (const port of panels) port.postMessage({ t: 'state', state: s });
}

export type PanelRequest =
  | { t: 'pair'; code: string }
  | { t: 'share'; tabId: number }
  | { t: 'unshare'; tabId: number }
  | { t: 'stop'; session: string }
  | { t: 'reconnect' };

async function pair(code: string): Promise<void> {
  if (!parsePairingCode(code)) throw new Error('That is not a pairing code: copy it from "Browser Agent: Pair Chrome Extension" in VS Code.');
  await chrome.storage.local.set({ pairingCode: code.trim() });
  await connecting;
  const old = ws;
  ws = undefined;
  old?.close();
  backoff = 500;
  await connect();
}

async function panelRequest(req: PanelRequest): Promise<void> {
  switch (req.t) {
    case 'pair':
      return pair(req.code);
    case 'share':
      return void (await share(req.tabId));
    case 'unshare':
      return unshare(req.tabId);
    case 'stop':
      return send({ t: 'stop', session: req.session });
    case 'reconnect':
      backoff = 500;
      return connect();
  }
}

// ---- listeners (top level: they wake the worker) ----

chrome.debugger.onEvent.addListener((source, method, params) => {
  if (early) early.push([source, method, params]);
  else onDebuggerEvent(source, method, params);
});

function onDebuggerEvent(source: chrome.debugger.Debuggee, method: string, params: object | undefined): void {
  if (source.tabId === undefined || !shared.has(source.tabId)) return;
  if (method === 'Page.windowOpen') noteWindowOpen(source.tabId, String((params as { url?: string } | undefined)?.url ?? ''));
  // Sites the tab's frames show: a popup one of them opens starts from there (its initiator).
  const p = params as { frame?: { url?: string }; targetInfo?: { url?: string } } | undefined;
  if (method === 'Page.frameNavigated') void requestRules.saw(source.tabId, p?.frame?.url).catch(() => undefined);
  else if (method === 'Target.attachedToTarget' || method === 'Target.targetInfoChanged') void requestRules.saw(source.tabId, p?.targetInfo?.url).catch(() => undefined);
  send({ t: 'event', tabId: source.tabId, sessionId: (source as { sessionId?: string }).sessionId, method, params: params ?? {} });
}

chrome.debugger.onDetach.addListener((source) => {
  // The user pressed "Cancel" on Chrome's debugging bar, or the tab closed or crashed away.
  if (source.tabId !== undefined) void requestRules.drop(source.tabId).catch(() => undefined);
  if (source.tabId !== undefined && shared.delete(source.tabId)) void persistShared().then(announce);
});

chrome.tabs.onUpdated.addListener((tabId, change, tab) => {
  const t = shared.get(tabId);
  if (!t || (change.url === undefined && change.title === undefined)) return;
  if (change.url !== undefined && RESTRICTED.test(change.url)) return void unshare(tabId);
  void requestRules.saw(tabId, change.url).catch(() => undefined);
  shared.set(tabId, { ...t, url: tab.url ?? t.url, title: tab.title ?? t.title });
  void persistShared();
  send({ t: 'tabs', tabs: [...shared.values()] });
  void notifyPanels();
});

/**
 * Windows each shared page opened (Page.windowOpen: window.open, a target=_blank link) that no new
 * tab has claimed yet. Each one shares at most one tab, so a tab someone opens later beside the
 * shared page is never taken for the page's popup.
 */
const windowOpens = new Map<number, { at: number; url: string }[]>();
const WINDOW_OPEN_TTL_MS = 10_000;

function noteWindowOpen(tabId: number, url: string): void {
  const now = Date.now();
  windowOpens.set(tabId, [...(windowOpens.get(tabId) ?? []).filter((w) => now - w.at < WINDOW_OPEN_TTL_MS), { at: now, url }]);
}

/**
 * Claims one of a shared tab's window-opens for a new tab: `exact`, only one onto this very URL;
 * otherwise the one with its URL first, else the oldest.
 */
function claimWindowOpen(openerTabId: number, url: string | undefined, exact = false): boolean {
  const now = Date.now();
  const list = (windowOpens.get(openerTabId) ?? []).filter((w) => now - w.at < WINDOW_OPEN_TTL_MS);
  let i = url ? list.findIndex((w) => w.url === url) : -1;
  if (i < 0 && !exact) i = list.length ? 0 : -1;
  if (i >= 0) list.splice(i, 1);
  windowOpens.set(openerTabId, list);
  return i >= 0;
}

/** Some shared page opened a window no tab has claimed yet. */
function windowOpenPending(): boolean {
  const now = Date.now();
  return [...windowOpens.values()].some((list) => list.some((w) => now - w.at < WINDOW_OPEN_TTL_MS));
}

/**
 * The shared tab whose page opened `tab`: the opener Chrome names, when it is shared and opened a
 * window; else a shared tab that opened a window onto exactly this URL (Chrome names the tab in
 * front as the opener of a popup a background tab opens).
 */
function claimOpener(tab: chrome.tabs.Tab, url: string | undefined): SharedTab | undefined {
  const named = tab.openerTabId !== undefined ? shared.get(tab.openerTabId) : undefined;
  if (named && claimWindowOpen(named.tabId, url)) return named;
  if (!url) return undefined;
  for (const t of shared.values()) if (t !== named && claimWindowOpen(t.tabId, url, true)) return t;
  return undefined;
}

chrome.tabs.onCreated.addListener((tab) => void placeNewTab(tab));

async function placeNewTab(tab: chrome.tabs.Tab): Promise<void> {
  // A tab a shared page opened is shared too. Chrome also names an opener for tabs the user (or
  // another program) opens next to a shared tab: those are shared only when they claim a window the
  // page itself opened, whichever of the two events comes first (the event can lag under load).
  if (tab.id === undefined) return;
  const id = tab.id;
  // A worker this event woke knows its shared tabs only once they are restored: before, every popup
  // looked like the person's tab.
  await restored.catch(() => undefined);
  // (A page cannot open a browser page: a new tab page is the person's.)
  const maybePopup = !RESTRICTED.test(tab.pendingUrl || tab.url || '') && ((tab.openerTabId !== undefined && shared.has(tab.openerTabId)) || windowOpenPending());
  // Request rules: the person's tab is never touched; one a guarded tab opened is held to its rules once claimed.
  void requestRules.created(id, maybePopup).catch(() => undefined);
  if (!maybePopup) return;
  const attempt = async (left: number) => {
    // The URL of a window.open popup is not known yet when it is created.
    const now = left === 50 ? tab : await chrome.tabs.get(id).catch(() => undefined);
    if (!now) return;
    const opener = claimOpener(tab, now.pendingUrl || now.url || undefined);
    if (opener) {
      await requestRules.adopt(id, opener.tabId).catch(() => undefined);
      return void share(id, opener.targetId).catch(() => undefined);
    }
    // A window-open comes within milliseconds of its tab; the wait is for a loaded machine. Unclaimed, the tab
    // stays undecided, under the shared tabs' sites' rules: counted the person's after half a second (as it
    // was), a popup whose window-open had been lost reached a blocked origin.
    if (left > 0) setTimeout(() => void attempt(left - 1), 100);
  };
  void attempt(50);
}

chrome.tabs.onRemoved.addListener((tabId) => {
  void requestRules.drop(tabId).catch(() => undefined);
  if (shared.delete(tabId)) void persistShared().then(announce);
});

chrome.tabs.onActivated.addListener(() => void updateBadges());

chrome.action.onClicked.addListener((tab) => {
  if (tab.id === undefined) return;
  void (shared.has(tab.id) ? unshare(tab.id) : share(tab.id)).catch((e) => setState(state, String(e?.message ?? e)));
});

chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== 'panel') return;
  panels.add(port);
  port.onDisconnect.addListener(() => panels.delete(port));
  port.onMessage.addListener((req: PanelRequest & { id: number }) => {
    panelRequest(req).then(
      () => port.postMessage({ t: 'done', id: req.id }),
      (e) => port.postMessage({ t: 'done', id: req.id, error: String(e?.message ?? e) }),
    );
  });
  void notifyPanels();
  void connect();
});

chrome.alarms.onAlarm.addListener(() => {
  void dropStaleRules().catch(() => undefined);
  void connect();
});
chrome.runtime.onStartup.addListener(() => void connect());
chrome.runtime.onInstalled.addListener(() => {
  void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: false }).catch(() => undefined);
});
// A stopped worker with no socket wakes at least every 30 s to reconnect.
void chrome.alarms.create('relay-reconnect', { periodInMinutes: 0.5 });

void connect();

/**
 * For tests driving the worker over CDP (a toolbar click cannot be made in headless Chrome): the
 * same functions the toolbar button and the side panel call.
 */
Object.assign(globalThis, { browserAgentRelay: { share, unshare, pair, state: panelState, connect, stop: (session: string) => panelRequest({ t: 'stop', session }) } });
