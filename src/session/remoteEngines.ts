// Remote-browser engines (browserless, Browserbase, Steel, Hyperbrowser): a WebSocket endpoint that starts a
// fresh browser for each connection, from a pool with a concurrency limit, behind a token. What tells them
// from a Chrome, how their addresses are shown without the token, and what their refusals mean.
import { BrowserAgentError } from '../base/errors';

/** Each MCP session its own remote browser (default), or every session of the daemon in one. */
export type RemoteBrowserMode = 'per-session' | 'shared';

/** Where the recipes are (engines, tokens, pool sizes). */
export const FLEETS_DOC = 'docs/fleets.md';

// A Chrome's own DevTools endpoints; an engine's are `ws://host:port?token=…`, `/chromium?…`, `wss://connect.…`.
const CHROME_PATH = /^\/devtools\/(browser|page)\//;

/**
 * True for the ws(s) URL of an engine that hands out a browser per connection: anything but a Chrome's
 * `/devtools/browser/<id>`. Such an endpoint costs a browser and a pool slot per connection, so a session
 * must make exactly one, and two connections never see the same browser.
 */
export function isBrowserPool(endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  return (url.protocol === 'ws:' || url.protocol === 'wss:') && !CHROME_PATH.test(url.pathname);
}

// Query parameters that carry credentials (token, apiKey, signingKey, sessionId, auth, jwt…).
const SECRET_PARAM = /token|key|secret|auth|pass|sign|sig$|cred|jwt|session/i;

/** The endpoint as logs, errors and status may show it: credentials in the query and user info replaced by ***. */
export function redactEndpoint(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return endpoint.replace(/([?&][^=&]*(?:token|key|secret|auth|pass)[^=&]*=)[^&\s]*/gi, '$1***');
  }
  const secrets = [...url.searchParams.keys()].filter((name) => SECRET_PARAM.test(name));
  if (!url.password && !secrets.length) return endpoint;
  if (url.password) url.password = '***';
  for (const name of secrets) url.searchParams.set(name, '***');
  // URLSearchParams encodes * as %2A.
  return url.toString().replace(/%2A%2A%2A/g, '***');
}

const TOKEN_HINT =
  'Check the token or API key and how it is sent: browserless takes ?token=… in the URL; Browserbase, Steel and Hyperbrowser take the API key or the signed connect URL their API gives; ' +
  'an engine that wants a header gets it from --cdp-header "Name: value" (MCP server) or browserAgent.connection.headers. See ' + FLEETS_DOC + '.';

const POOL_FULL_HINT =
  'Every browser of the engine is in use. Wait for a session to end and call again; end sessions you no longer need (`browser-agent-daemon status`, the Sessions view); ' +
  "raise the engine's limit (browserless: CONCURRENT and QUEUED; a hosted service: your plan's concurrent sessions); " +
  'or let the sessions of this machine share one remote browser (--remote-browser shared, browserAgent.connection.remoteBrowser). See ' + FLEETS_DOC + '.';

/** The error for an endpoint that answered the WebSocket upgrade (or /json/version) with an HTTP status. */
export function refusedByEndpoint(endpoint: string, status: number, fallbackHint?: string): BrowserAgentError {
  const shown = redactEndpoint(endpoint);
  if (status === 401 || status === 403) return new BrowserAgentError('ATTACH_FAILED', `${shown} refused the connection: HTTP ${status} (a wrong or missing token or API key).`, TOKEN_HINT);
  if (status === 429) return new BrowserAgentError('ATTACH_FAILED', `${shown} has no free browser: HTTP 429 (its pool of concurrent sessions is full, and its queue too).`, POOL_FULL_HINT);
  if (status === 408 || status === 503) return new BrowserAgentError('ATTACH_FAILED', `${shown} gave no browser in time: HTTP ${status} (the connection waited in the engine's queue, or the engine is overloaded).`, POOL_FULL_HINT);
  return new BrowserAgentError('ATTACH_FAILED', `Could not connect to ${shown}: HTTP ${status}.`, isBrowserPool(endpoint) ? `Is this the CDP WebSocket address of the engine (not its Playwright or REST route)? See ${FLEETS_DOC}.` : fallbackHint);
}

/** A WebSocket that never opened and got no HTTP answer: nothing listens, or an engine kept it queued. */
export function unreachableEndpoint(endpoint: string, cause: string, timedOut: boolean): BrowserAgentError {
  const shown = redactEndpoint(endpoint);
  if (!isBrowserPool(endpoint)) return new BrowserAgentError('ATTACH_FAILED', `Could not connect to ${shown}: ${cause}`);
  if (timedOut) return new BrowserAgentError('ATTACH_FAILED', `${shown} gave no browser in time (${cause}): the engine kept the connection waiting, most likely in its queue for a free browser.`, POOL_FULL_HINT);
  return new BrowserAgentError('ATTACH_FAILED', `No remote-browser engine answers at ${shown} (${cause}).`, `Is the engine running, and is this its address? See ${FLEETS_DOC}.`);
}

/** How long a connection to an engine may wait for its browser (queued behind a full pool, a cold start). */
export const POOL_CONNECT_TIMEOUT_MS = 30_000;

/** Why a remote browser's connection closed, for the calls that were running and the sessions that end. */
export function remoteBrowserGone(endpoint: string): string {
  return `The remote browser at ${redactEndpoint(endpoint)} closed the connection: the engine ended its session (its session time limit, a kill, a restart) or the network dropped. Its pages, tabs and refs are gone; the next call opens a new remote browser.`;
}
