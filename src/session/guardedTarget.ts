// One target the request guard is attached to (a page, frame, worker), as the guard's parts share it:
// what is installed in it, and the shape pages are handed out in (the second line, landedPageCheck.ts).
import type { CdpConnection } from './cdp';

export interface GuardedTarget {
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
  /** Pages through the extension relay: the tab rules last sent (JSON; see TargetInterception.setTabRules). */
  tabRules?: string;
  /** The session that attached it (the guard's browser session, or a page's or frame's): where it is detached. */
  parent?: string;
  /** Service workers: their requests by Network request id, to name what the renderer's URL blocking stopped. */
  requests?: Map<string, string>;
  /** Service workers: the guard is leaving the session of a stopped worker (see serviceWorkers.ts). */
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
export const FETCH_TYPES = new Set(['page', 'iframe', 'worker', 'shared_worker', 'service_worker']);
export const SETUP_TIMEOUT_MS = 5000;

export function guardedPage(t: GuardedTarget): GuardedPage {
  return { targetId: t.targetId, sessionId: t.sessionId, url: t.url, fresh: t.fresh };
}

/** Commands to one of the guard's sessions, each bounded by the set-up timeout. */
export function sender(connection: CdpConnection, sessionId: string) {
  return <M extends Parameters<CdpConnection['send']>[0]>(method: M, params?: Parameters<CdpConnection['send']>[1]) =>
    connection.send(method, params as never, sessionId, SETUP_TIMEOUT_MS);
}
