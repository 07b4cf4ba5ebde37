import { BrowserAgentError } from '../base/errors';

/** The part of cdp.ts's connection the checks use, named here so that only cdp.ts imports the other file. */
export interface ProbedConnection {
  readonly closed: boolean;
  send(method: 'Browser.getVersion', params?: undefined, sessionId?: undefined, timeoutMs?: number): Promise<unknown>;
  close(reason?: string): void;
}

/**
 * Whether the browser at the other end of a connection is still there. A page that does not answer
 * may be a hung page; a browser process that does not answer a trivial browser-level call is frozen
 * (SIGSTOP, swapped out), wedged, or the connection to it stalled without closing (a proxy, a remote
 * fleet, a dead NAT entry). No call on such a connection will ever be answered: waiting out every
 * timeout would hang each call for 30 s forever, so the connection is dropped instead and the next
 * call relaunches (a browser we launched) or reconnects (one we attached to, never closed).
 */

/** How long the browser target may take to answer `Browser.getVersion` (handled by the browser process, never a renderer). */
export const BROWSER_PROBE_MS = 3000;
/** A connection with calls waiting and no message at all for this long gets the probe. */
export const STALL_MS = 5000;

/** True when the browser answers a browser-level call within `ms`; any answer, even an error, counts. */
export function browserAnswers(connection: ProbedConnection, ms = BROWSER_PROBE_MS): Promise<boolean> {
  if (connection.closed) return Promise.resolve(false);
  return connection.send('Browser.getVersion', undefined, undefined, ms).then(
    () => true,
    (e: { code?: string }) => e?.code !== 'TIMEOUT' && e?.code !== 'BROWSER_DISCONNECTED',
  );
}

export function unresponsiveReason(silentMs: number): string {
  return `The browser stopped answering: nothing came over its DevTools connection for ${Math.round(silentMs / 1000)} s, not even the answer to a trivial browser call (the browser is frozen or overloaded, or the connection to it stalled). Browser Agent dropped the connection.`;
}

/** Drops a connection whose browser does not answer; the calls still waiting on it fail with the reason. */
export function dropUnresponsive(connection: ProbedConnection, silentMs: number): void {
  connection.close(unresponsiveReason(silentMs));
}

/**
 * Asks the browser whether it is there, after a call went unanswered for `waitedMs`; drops the
 * connection when it is silent too. Resolves true when the browser answered.
 */
export async function checkBrowser(connection: ProbedConnection, waitedMs: number): Promise<boolean> {
  if (await browserAnswers(connection)) return true;
  if (!connection.closed) dropUnresponsive(connection, waitedMs + BROWSER_PROBE_MS);
  return false;
}

/** The error a call gets when its browser was found silent and the connection dropped. */
export function unresponsiveError(kind: 'launched' | 'attached', silentMs: number): BrowserAgentError {
  return new BrowserAgentError(
    'BROWSER_DISCONNECTED',
    unresponsiveReason(silentMs),
    kind === 'launched'
      ? 'The browser Browser Agent launched was closed; the next call launches a new one (earlier pages, tabs and refs are gone).'
      : 'The browser was left running; the next call connects to it again (if it still does not answer, restart it or check the connection).',
  );
}
