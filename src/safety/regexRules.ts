import { canonicalHostGlob } from '../base/canonical';
import type { PolicySettings } from './settings';

/** One rule of a first-match-wins list: a regular expression over a request's full URL. */
export interface RegexRule {
  regex: string;
  block: boolean;
}

const SCHEMES = ['http', 'https', 'ws', 'wss'] as const;
const DEFAULT_PORT: Record<string, string> = { http: '80', https: '443', ws: '80', wss: '443' };
/** Any http(s)/ws(s) URL: the allow list's last rule. */
const ANY_WEB_URL = '^(?:https?|wss?)://';

const wildcard = (glob: string) => new RegExp(`^${glob.split('*').map(escape).join('.*')}$`, 'i');

function escape(s: string): string {
  return s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The regular expressions (RE2 syntax, for Chrome's declarativeNetRequest `regexFilter`) that match
 * exactly the URLs `originMatches(glob, url)` matches, as Chrome writes URLs (lower case, punycode,
 * dotted-decimal IPv4, default port left out). A scheme glob that names http or https covers ws or
 * wss too, as the WebSocket rules do (webSocketBlockPatterns). One per default-port behaviour.
 */
export function globRegexes(glob: string): string[] {
  let g = glob.trim().toLowerCase();
  if (!g) return [];
  if (g === '*') return [ANY_WEB_URL];
  if (/^[0-9a-f]*:[0-9a-f]*:[0-9a-f:.]*$/.test(g)) g = `[${g}]`; // a bare IPv6 address
  const m = /^(?:([a-z*][a-z0-9+.*-]*):\/\/)?(?:[^@/]*@)?(\[[^\]]*\]|[^/:]+)(?::([0-9*]+))?\/?$/.exec(g);
  const host = m && canonicalHostGlob(m[2]);
  if (!m || !host) return [];
  const [, scheme, , portGlob] = m;
  const schemes = new Set(SCHEMES.filter((s) => !scheme || wildcard(scheme).test(s)));
  if (schemes.has('http')) schemes.add('ws');
  if (schemes.has('https')) schemes.add('wss');
  if (!schemes.size) return [];
  const hostRe = hostRegex(host);
  const userinfo = '(?:[^/?#@]*@)?';
  if (!portGlob || portGlob === '*') return [`^(?:${[...schemes].join('|')})://${userinfo}${hostRe}(?::[0-9]+)?/`];
  // Chrome leaves a scheme's default port out of the URL: where the glob takes it, the port is optional.
  const port = portGlob.split('*').map(escape).join('[0-9]*');
  const implicit = [...schemes].filter((s) => wildcard(portGlob).test(DEFAULT_PORT[s]));
  const explicit = [...schemes].filter((s) => !implicit.includes(s));
  const out: string[] = [];
  if (implicit.length) out.push(`^(?:${implicit.join('|')})://${userinfo}${hostRe}(?::${port})?/`);
  if (explicit.length) out.push(`^(?:${explicit.join('|')})://${userinfo}${hostRe}:${port}/`);
  return out;
}

/** A canonical host glob as a regular expression for the host part of a URL (a trailing dot allowed). */
function hostRegex(host: string): string {
  if (host.includes(':')) return `\\[${host.split('*').map(escape).join('[0-9a-f:.]*')}\\]`;
  const label = '[^/?#@:\\[\\]]*';
  if (host === '*') return `(?:${label}|\\[[0-9a-f:.]*\\])`;
  const glob = (h: string) => h.split('*').map(escape).join(label);
  const body = host.startsWith('*.') ? `(?:${label}\\.)?${glob(host.slice(2))}` : glob(host);
  return `${body}\\.?`;
}

/**
 * The origin lists as a first-match-wins list of URL rules, for a guard that cannot run code for
 * each request (the companion extension's declarativeNetRequest rules, which keep popups of shared
 * tabs from sending anything before the debugger reaches them): blocked globs block, allowed globs
 * pass, and with an allow list every other http(s)/ws(s) URL is blocked — checkRequestOrigin's order.
 */
export function requestRegexRules(settings: Pick<PolicySettings, 'allowedOrigins' | 'blockedOrigins'>): RegexRule[] {
  const out: RegexRule[] = settings.blockedOrigins.flatMap((g) => globRegexes(g).map((regex) => ({ regex, block: true })));
  if (settings.allowedOrigins.length) {
    out.push(...settings.allowedOrigins.flatMap((g) => globRegexes(g).map((regex) => ({ regex, block: false }))));
    out.push({ regex: ANY_WEB_URL, block: true });
  }
  return out;
}
