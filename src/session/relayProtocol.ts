// The wire protocol between the companion Chrome extension (chrome-extension/) and the session
// daemon's relay endpoint, version 1. One JSON object per WebSocket message. The extension only
// does what chrome.debugger can do for the tabs the user shared; the daemon side (relayTransport.ts)
// turns that into a browser-level CDP endpoint for the rest of Browser Agent.

export const RELAY_PROTOCOL = 'browser-agent-relay.v1';
/** The token travels as a second WebSocket subprotocol (a browser's WebSocket cannot set headers). */
export const RELAY_TOKEN_PREFIX = 'token.';
export const DEFAULT_RELAY_PORT = 47321;
/** The endpoint name that selects the extension relay (`--extension`, "Attach to Browser…"). */
export const RELAY_ENDPOINT = 'relay:chrome-extension';

/** A tab the user shared, as the extension reports it. */
export interface SharedTab {
  tabId: number;
  /** chrome.debugger's targetId for the tab: the CDP target id the rest of Browser Agent sees. */
  targetId: string;
  url: string;
  title: string;
  /** The tab was opened by another shared tab (a popup) or by the agent. */
  openerTargetId?: string;
  active: boolean;
}

/** extension → daemon */
export type ExtensionMessage =
  /** First message on every (re)connection. */
  | { t: 'hello'; v: 1; version: string; tabs: SharedTab[] }
  /** The whole list of shared tabs, after any change (share, unshare, navigation, title). */
  | { t: 'tabs'; tabs: SharedTab[] }
  | { t: 'result'; rid: number; result?: unknown; error?: { code?: number; message: string } }
  /** A CDP event of a shared tab; `sessionId` when it comes from a child (iframe, worker) session. */
  | { t: 'event'; tabId: number; sessionId?: string; method: string; params: unknown }
  /** The side panel's Stop button: fail the current action of this session. */
  | { t: 'stop'; session: string }
  | { t: 'ping' };

/** What the daemon asks of the extension. */
export type RelayRequest =
  | { op: 'cdp'; tabId: number; sessionId?: string; method: string; params?: unknown }
  /** Open a tab (shared at once: the agent made it) and return its targetId; in the background unless `background: false`. */
  | { op: 'open'; url: string; newWindow?: boolean; background?: boolean; openerTabId?: number }
  | { op: 'close'; tabId: number }
  | { op: 'activate'; tabId: number }
  /** The tab's request rules (see TabRules); `rules` empty clears them. */
  | ({ op: 'rules'; tabId: number } & TabRules);

/**
 * What a session's request guard asks of the extension for one shared tab, as a CDP call on the tab's
 * session (the relay transport answers it; a real browser does not know it): the origin rules as a
 * first-match-wins list of URL regular expressions, which the extension installs as Chrome's own
 * request blocking (declarativeNetRequest session rules) for the tabs this tab opens, from their first
 * request on, and for this tab itself until `intercepting` (its Fetch interception decides from then on).
 */
export interface TabRules {
  rules: { regex: string; block: boolean }[];
  intercepting: boolean;
}
export const TAB_RULES_METHOD = 'BrowserAgent.setTabRequestRules';

/** daemon → extension */
export type DaemonRelayMessage =
  /**
   * `retry`: sent again after a reconnect because no answer came (only calls that just read are;
   * any other fails with RELAY_INTERRUPTED rather than run twice). The extension answers a request
   * id once: from its answer, or the call still running.
   */
  | ({ t: 'req'; rid: number; retry?: boolean } & RelayRequest)
  /** For the side panel: sessions, their tabs and current step. */
  | { t: 'sessions'; sessions: RelaySessionView[] }
  /** `epoch` changes with each relay endpoint (request ids start over with it). */
  | { t: 'welcome'; v: 1; daemonPid: number; epoch: string }
  | { t: 'pong' };

export interface RelaySessionView {
  id: string;
  client: string;
  tabs: number[];
  /** The CDP method the session is waiting on, if any (its current step). */
  step?: string;
}

export const RELAY_INTERRUPTED = 'RELAY_INTERRUPTED';

/** `chrome-extension://<32 letters a-p>`: the only Origin the relay endpoint accepts. */
export const EXTENSION_ORIGIN = /^chrome-extension:\/\/[a-p]{32}$/;

/** The code "Pair Chrome Extension" shows and the extension's side panel takes: port and token. */
export function formatPairingCode(port: number, token: string): string {
  return `${port}-${token}`;
}

export function parsePairingCode(code: string): { port: number; token: string } | undefined {
  const m = /^\s*(\d{2,5})-([0-9a-f]{32,128})\s*$/i.exec(code);
  if (!m) return undefined;
  const port = Number(m[1]);
  return port > 0 && port < 65536 ? { port, token: m[2].toLowerCase() } : undefined;
}
