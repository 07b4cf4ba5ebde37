import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { BrowserAgentError } from '../base/errors';
import { readDevToolsActivePort } from './launcher';
import { redactEndpoint, refusedByEndpoint } from './remoteEngines';

/** Plain-words help for the most common attach failure (Chrome 136+ and the default profile). */
export const ATTACH_HELP =
  'To let Browser Agent use your own Chrome: in Chrome 144 or newer open chrome://inspect/#remote-debugging and turn on remote debugging, then run "Browser Agent: Attach to Browser…" and pick it. ' +
  'Chrome 136 and newer ignore --remote-debugging-port on your default profile, so if you start Chrome by hand add a separate profile: ' +
  'chrome --remote-debugging-port=9222 --user-data-dir=/path/to/another/folder, then attach to http://127.0.0.1:9222.';

export interface DiscoveredBrowser {
  label: string;
  profileDir: string;
  wsEndpoint: string;
}

/**
 * Turns what a user typed into a browser WebSocket URL:
 * `ws(s)://…` as is; `http(s)://host:port`, `host:port` or a bare port via `/json/version`.
 */
export async function resolveEndpoint(input: string, headers?: Record<string, string>, timeoutMs = 5000): Promise<string> {
  const text = input.trim();
  if (!text) throw new BrowserAgentError('INVALID_INPUT', 'No endpoint given.', 'Use http://127.0.0.1:9222 or a ws://…/devtools/browser/… URL.');
  if (/^wss?:\/\//i.test(text)) {
    try {
      new URL(text);
    } catch {
      throw new BrowserAgentError('INVALID_INPUT', `"${redactEndpoint(text)}" is not a valid WebSocket URL.`);
    }
    return text;
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)?.[1]?.toLowerCase();
  if (scheme && scheme !== 'http' && scheme !== 'https') {
    throw new BrowserAgentError('INVALID_INPUT', `Unsupported endpoint scheme ${scheme}:`, 'Use http://127.0.0.1:9222 or a ws://…/devtools/browser/… URL.');
  }
  let httpUrl: URL;
  try {
    httpUrl = new URL(/^\d+$/.test(text) ? `http://127.0.0.1:${text}` : /^https?:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    throw new BrowserAgentError('INVALID_INPUT', `"${redactEndpoint(text)}" is not an endpoint.`, 'Use http://127.0.0.1:9222 or a ws://…/devtools/browser/… URL.');
  }
  if (!/^https?:$/.test(httpUrl.protocol)) {
    throw new BrowserAgentError('INVALID_INPUT', `Unsupported endpoint scheme ${httpUrl.protocol}`, 'Use http(s):// or ws(s)://.');
  }
  // The query stays: an engine's token (browserless: ?token=…) guards /json/version and the WebSocket alike.
  const versionUrl = new URL(`/json/version${httpUrl.search}`, httpUrl);
  const shown = redactEndpoint(versionUrl.toString());
  let res: Response;
  try {
    res = await fetch(versionUrl, { headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    throw new BrowserAgentError('ATTACH_FAILED', `No browser answers at ${redactEndpoint(httpUrl.toString())} (${(e as Error).message}).`, ATTACH_HELP);
  }
  if (res.status === 404) {
    throw new BrowserAgentError(
      'ATTACH_FAILED',
      `${httpUrl.origin} answers, but /json/version does not exist (Chrome 144+ with remote debugging enabled from chrome://inspect serves only the WebSocket).`,
      'Use "Attach to Browser…" and pick the discovered browser, or paste the ws:// URL built from the profile\'s DevToolsActivePort file.',
    );
  }
  if (!res.ok) throw refusedByEndpoint(versionUrl.toString(), res.status, ATTACH_HELP);
  let body: { webSocketDebuggerUrl?: string };
  try {
    body = (await res.json()) as { webSocketDebuggerUrl?: string };
  } catch {
    throw new BrowserAgentError('ATTACH_FAILED', `${shown} did not answer with JSON; is this a DevTools endpoint?`, ATTACH_HELP);
  }
  if (!body.webSocketDebuggerUrl) throw new BrowserAgentError('ATTACH_FAILED', `${shown} has no webSocketDebuggerUrl.`, ATTACH_HELP);
  // A browser behind a proxy or in a container reports its own host; keep the one the user reached.
  const ws = new URL(body.webSocketDebuggerUrl);
  ws.protocol = httpUrl.protocol === 'https:' ? 'wss:' : 'ws:';
  ws.host = httpUrl.host;
  // An engine reports its bare address (browserless: ws://host:port): its connections need the token too.
  if (!ws.search && httpUrl.search && !ws.pathname.startsWith('/devtools/')) ws.search = httpUrl.search;
  return ws.toString();
}

/** Profile folders where Chrome-family browsers write DevToolsActivePort. */
export function defaultProfileDirs(): { label: string; dir: string }[] {
  const home = homedir();
  if (process.platform === 'darwin') {
    const base = join(home, 'Library', 'Application Support');
    return [
      { label: 'Google Chrome', dir: join(base, 'Google', 'Chrome') },
      { label: 'Chrome Beta', dir: join(base, 'Google', 'Chrome Beta') },
      { label: 'Chrome Canary', dir: join(base, 'Google', 'Chrome Canary') },
      { label: 'Chromium', dir: join(base, 'Chromium') },
      { label: 'Microsoft Edge', dir: join(base, 'Microsoft Edge') },
      { label: 'Brave', dir: join(base, 'BraveSoftware', 'Brave-Browser') },
    ];
  }
  if (process.platform === 'win32') {
    const local = process.env.LOCALAPPDATA ?? join(home, 'AppData', 'Local');
    return [
      { label: 'Google Chrome', dir: join(local, 'Google', 'Chrome', 'User Data') },
      { label: 'Chrome Beta', dir: join(local, 'Google', 'Chrome Beta', 'User Data') },
      { label: 'Chrome Canary', dir: join(local, 'Google', 'Chrome SxS', 'User Data') },
      { label: 'Chromium', dir: join(local, 'Chromium', 'User Data') },
      { label: 'Microsoft Edge', dir: join(local, 'Microsoft', 'Edge', 'User Data') },
      { label: 'Brave', dir: join(local, 'BraveSoftware', 'Brave-Browser', 'User Data') },
    ];
  }
  const config = process.env.XDG_CONFIG_HOME ?? join(home, '.config');
  return [
    { label: 'Google Chrome', dir: join(config, 'google-chrome') },
    { label: 'Chrome Beta', dir: join(config, 'google-chrome-beta') },
    { label: 'Chrome Dev', dir: join(config, 'google-chrome-unstable') },
    { label: 'Chromium', dir: join(config, 'chromium') },
    { label: 'Microsoft Edge', dir: join(config, 'microsoft-edge') },
    { label: 'Brave', dir: join(config, 'BraveSoftware', 'Brave-Browser') },
  ];
}

/** Browsers whose profile has a DevToolsActivePort file and whose port accepts a connection. */
export async function discoverBrowsers(dirs = defaultProfileDirs()): Promise<DiscoveredBrowser[]> {
  const found = await Promise.all(
    dirs.map(async ({ label, dir }) => {
      if (!existsSync(dir)) return undefined;
      const wsEndpoint = readDevToolsActivePort(dir);
      if (!wsEndpoint) return undefined;
      const port = Number(new URL(wsEndpoint).port);
      return (await portOpen(port)) ? { label, profileDir: dir, wsEndpoint } : undefined;
    }),
  );
  return found.filter((b): b is DiscoveredBrowser => !!b);
}

function portOpen(port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
