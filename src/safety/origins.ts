import { BrowserAgentError } from '../base/errors';
import { canonicalHostGlob, canonicalUrl } from '../base/canonical';
import { DANGEROUS_SCHEMES, type PolicySettings } from './settings';
import { schemeOf, originOf, originMatches } from '../base/originGlob';

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

/**
 * The origin rules alone, for the request guard in the session layer: every http(s)/ws(s)
 * request (documents, frames, redirect hops, scripts, images, fetches, downloads) is checked;
 * other schemes (data:, blob:, about:) carry no origin and pass (navigations to them are rated
 * by the scheme rule before they start).
 */
export function checkRequestOrigin(url: string, settings: Pick<PolicySettings, 'allowedOrigins' | 'blockedOrigins'>): UrlVerdict {
  if (!canonicalUrl(url)) return { allowed: true };
  return checkUrl(url, { ...settings, allowedSchemes: [] });
}

/** True when some origin rule is set (otherwise the request guard has nothing to do). */
export function hasOriginRules(settings: Pick<PolicySettings, 'allowedOrigins' | 'blockedOrigins'>): boolean {
  return settings.allowedOrigins.length > 0 || settings.blockedOrigins.length > 0;
}

/** A URLPattern rule for `Network.setBlockedURLs` (first match wins). */
export interface UrlBlockPattern {
  urlPattern: string;
  block: boolean;
}

/**
 * The origin lists as URLPattern rules for WebSocket handshakes, which request interception
 * (`Fetch`) never sees: blocked globs block, allowed globs pass, and with an allow list every
 * other ws(s) URL is blocked. Chrome hands these patterns canonical URLs (lower case, punycode,
 * dotted-decimal IPv4), so the canonical host of each glob is enough; a trailing dot is optional.
 */
export function webSocketBlockPatterns(settings: Pick<PolicySettings, 'allowedOrigins' | 'blockedOrigins'>): UrlBlockPattern[] {
  const toPatterns = (glob: string, block: boolean): UrlBlockPattern[] => {
    let g = glob.trim().toLowerCase();
    if (g === '*') return ['ws', 'wss'].map((s) => ({ urlPattern: `${s}://*:*/*`, block }));
    if (/^[0-9a-f]*:[0-9a-f]*:[0-9a-f:.]*$/.test(g)) g = `[${g}]`;
    const m = /^(?:([a-z*][a-z0-9+.*-]*):\/\/)?(?:[^@/]*@)?(\[[^\]]*\]|[^/:]+)(?::([0-9*]+))?\/?$/.exec(g);
    const host = m && canonicalHostGlob(m[2]);
    if (!m || !host) return [];
    const schemes = !m[1] || m[1] === '*' ? ['ws', 'wss'] : m[1] === 'http' || m[1] === 'ws' ? ['ws'] : m[1] === 'https' || m[1] === 'wss' ? ['wss'] : [];
    const esc = (h: string) => h.replace(/[^a-z0-9.*-]/g, (c) => `\\${c}`);
    const hosts = host.startsWith('*.') ? [`{*.}?${esc(host.slice(2))}`] : [esc(host.includes(':') ? `[${host}]` : host)];
    const port = m[3] ?? '*';
    return schemes.flatMap((s) => hosts.map((h) => ({ urlPattern: `${s}://${h}${host.includes(':') ? '' : '{.}?'}:${port}/*`, block })));
  };
  const out = settings.blockedOrigins.flatMap((g) => toPatterns(g, true));
  if (settings.allowedOrigins.length) {
    out.push(...settings.allowedOrigins.flatMap((g) => toPatterns(g, false)));
    out.push({ urlPattern: 'ws://*:*/*', block: true }, { urlPattern: 'wss://*:*/*', block: true });
  }
  return out;
}

/**
 * `Fetch.enable` URL patterns that pause every request the origin rules could refuse, and as few
 * others as possible (each pause is a round trip through the extension). With an allow list every
 * request may be refused: all are paused. With a block list only, a request is paused when its URL
 * contains a blocked host anywhere (`*host*`): a superset — the guard still checks each paused
 * request exactly — that relies on Chrome handing the patterns canonical URLs (lower case,
 * punycode, dotted-decimal IPv4), as `webSocketBlockPatterns` does.
 */
export function interceptPatterns(settings: Pick<PolicySettings, 'allowedOrigins' | 'blockedOrigins'>): string[] {
  if (settings.allowedOrigins.length) return ['*'];
  const out = new Set<string>();
  for (const glob of settings.blockedOrigins) {
    let g = glob.trim().toLowerCase();
    if (/^[0-9a-f]*:[0-9a-f]*:[0-9a-f:.]*$/.test(g)) g = `[${g}]`;
    const m = /^(?:([a-z*][a-z0-9+.*-]*):\/\/)?(?:[^@/]*@)?(\[[^\]]*\]|[^/:]+)(?::([0-9*]+))?\/?$/.exec(g);
    const host = m && canonicalHostGlob(m[2]);
    // Anything we cannot narrow safely: pause everything.
    if (!host || host === '*' || host.replace(/[*.]/g, '') === '') return ['*'];
    const core = host.replace(/^(\*\.)+/, '');
    out.add(`*${(core.includes(':') ? `[${core}]` : core).replace(/[\\?]/g, (c) => `\\${c}`)}*`);
  }
  return [...out];
}
