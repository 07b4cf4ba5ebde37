import { BrowserAgentError } from '../errors';
import { DANGEROUS_SCHEMES, type PolicySettings } from './settings';

/** The scheme of a URL without the colon, lower case; undefined when it does not parse. */
export function schemeOf(url: string): string | undefined {
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(url.trim());
  return m ? m[1].toLowerCase() : undefined;
}

/** `https://shop.example.com` for http(s)/ws(s) URLs; undefined for schemes without a network origin. */
export function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return /^(https?|wss?):$/.test(u.protocol) ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One origin glob against one URL. Forms: `example.com` (that host, any scheme and port),
 * `*.example.com` (subdomains and the domain itself), `https://*.example.com`, `localhost:*`,
 * `http://127.0.0.1:8080`. `*` matches within a host label run; it never crosses `/`.
 */
export function originMatches(glob: string, url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const g = glob.trim().toLowerCase();
  if (!g) return false;
  if (g === '*') return true;
  const m = /^(?:([a-z*][a-z0-9+.*-]*):\/\/)?([^/:]+)(?::([0-9*]+))?\/?$/.exec(g);
  if (!m) return false;
  const [, scheme, hostGlob, portGlob] = m;
  if (scheme && !wildcard(scheme).test(u.protocol.slice(0, -1))) return false;
  const host = u.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const hostOk = hostGlob.startsWith('*.') ? host === hostGlob.slice(2) || wildcard(hostGlob).test(host) : wildcard(hostGlob).test(host);
  if (!hostOk) return false;
  if (portGlob) {
    const port = u.port || (u.protocol === 'https:' ? '443' : u.protocol === 'http:' ? '80' : '');
    if (!wildcard(portGlob).test(port)) return false;
  }
  return true;
}

function wildcard(glob: string): RegExp {
  return new RegExp(`^${glob.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'i');
}

export interface UrlVerdict {
  allowed: boolean;
  rule?: 'scheme' | 'blocked-origin' | 'not-allowed-origin';
  reason?: string;
}

/**
 * Whether a page may be visited or acted on. `about:blank` (and `about:srcdoc` frames) always may;
 * dangerous schemes only when enabled; http(s) against the block list, then the allow list.
 */
export function checkUrl(url: string, settings: Pick<PolicySettings, 'allowedOrigins' | 'blockedOrigins' | 'allowedSchemes'>): UrlVerdict {
  const scheme = schemeOf(url);
  if (!scheme) return { allowed: true };
  if (scheme === 'about') return { allowed: true };
  const allowedSchemes = settings.allowedSchemes.map((s) => s.toLowerCase().replace(/:$/, ''));
  if (DANGEROUS_SCHEMES.includes(scheme) && !allowedSchemes.includes(scheme)) {
    return { allowed: false, rule: 'scheme', reason: `${scheme}: URLs are not allowed (they reach local files, run code or open browser internals; the user can enable the scheme in browserAgent.safety.allowedSchemes, or --allow-schemes for the MCP server)` };
  }
  if (!/^(https?|wss?)$/.test(scheme)) return { allowed: true };
  const blocked = settings.blockedOrigins.find((g) => originMatches(g, url));
  if (blocked) return { allowed: false, rule: 'blocked-origin', reason: `${originOf(url)} matches the blocked origin "${blocked}"` };
  if (settings.allowedOrigins.length && !settings.allowedOrigins.some((g) => originMatches(g, url))) {
    return { allowed: false, rule: 'not-allowed-origin', reason: `${originOf(url)} is not in the allowed origins (${settings.allowedOrigins.join(', ')})` };
  }
  return { allowed: true };
}

/**
 * For the actions code: call after a navigation lands (redirects) and before acting in a frame.
 * Throws BLOCKED_BY_POLICY when the URL may not be used.
 */
export function assertOriginAllowed(url: string, settings: Pick<PolicySettings, 'allowedOrigins' | 'blockedOrigins' | 'allowedSchemes'>, what = 'The page'): void {
  const v = checkUrl(url, settings);
  if (!v.allowed) {
    throw new BrowserAgentError('BLOCKED_BY_POLICY', `${what} ${url} is blocked by the safety policy: ${v.reason}.`, 'Do not retry; navigate to an allowed site or ask the user to change browserAgent.safety settings.');
  }
}
