/**
 * URL schemes, origins and origin globs, canonical (see canonical.ts). No policy here: the allow and block
 * lists that use them are safety/origins.ts; skills match their sites with them.
 */
import { canonicalHostGlob, canonicalUrl } from './canonical';

/** The scheme of a URL without the colon, lower case; undefined when it does not parse. */
export function schemeOf(url: string): string | undefined {
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(url.trim());
  return m ? m[1].toLowerCase() : undefined;
}

/** `https://shop.example.com` for http(s)/ws(s) URLs, canonical (see canonical.ts); undefined for other schemes. */
export function originOf(url: string | undefined): string | undefined {
  return url ? canonicalUrl(url)?.origin : undefined;
}

/**
 * One origin glob against one URL, both canonical (`LOCALHOST.`, `127.1`, `0x7f.0.0.1`,
 * `2130706433`, `[::1]` and IDN vs punycode each match their one host). Forms: `example.com`
 * (that host, any scheme and port), `*.example.com` (subdomains and the domain itself),
 * `https://*.example.com`, `localhost:*`, `http://127.0.0.1:8080`, `[::1]:3000`. `*` never crosses `/`.
 */
export function originMatches(glob: string, url: string): boolean {
  const u = canonicalUrl(url);
  if (!u) return false;
  let g = glob.trim().toLowerCase();
  if (!g) return false;
  if (g === '*') return true;
  if (/^[0-9a-f]*:[0-9a-f]*:[0-9a-f:.]*$/.test(g)) g = `[${g}]`; // a bare IPv6 address
  const m = /^(?:([a-z*][a-z0-9+.*-]*):\/\/)?(?:[^@/]*@)?(\[[^\]]*\]|[^/:]+)(?::([0-9*]+))?\/?$/.exec(g);
  if (!m) return false;
  const [, scheme, rawHost, portGlob] = m;
  const hostGlob = canonicalHostGlob(rawHost);
  if (!hostGlob) return false;
  if (scheme && !wildcard(scheme).test(u.scheme)) return false;
  const hostOk = hostGlob.startsWith('*.') ? u.host === hostGlob.slice(2) || wildcard(hostGlob).test(u.host) : wildcard(hostGlob).test(u.host);
  if (!hostOk) return false;
  return !portGlob || wildcard(portGlob).test(u.port);
}

function wildcard(glob: string): RegExp {
  return new RegExp(`^${glob.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'i');
}
