import { domainToASCII } from 'node:url';

/**
 * Canonical host names, so one host written many ways matches one rule. The WHATWG URL parser
 * (the one Chrome uses) already lower-cases, turns IDN into punycode, reads IPv4 in decimal, hex,
 * octal and short forms (`127.1`, `0x7f.0.0.1`, `2130706433`) and drops userinfo; on top of it a
 * trailing dot is removed (`localhost.` is `localhost`) and IPv6 brackets are dropped.
 */
export function canonicalHost(hostname: string): string {
  let h = hostname.toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) return h.slice(1, -1);
  while (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443' };

export interface CanonicalUrl {
  /** Scheme without the colon, lower case. */
  scheme: string;
  host: string;
  /** Always explicit: the default port of the scheme when the URL has none. */
  port: string;
  /** `https://shop.example.com` / `http://127.0.0.1:8080`: default ports omitted, like URL.origin. */
  origin: string;
}

/** The canonical parts of an http(s)/ws(s) URL; undefined for other schemes and for garbage. */
export function canonicalUrl(url: string): CanonicalUrl | undefined {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return undefined;
  }
  const port = DEFAULT_PORTS[u.protocol];
  if (!port || !u.hostname) return undefined;
  const host = canonicalHost(u.hostname);
  const p = u.port || port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return { scheme: u.protocol.slice(0, -1), host, port: p, origin: `${u.protocol}//${shown}${p === port ? '' : `:${p}`}` };
}

/**
 * The host part of an origin glob in canonical form. Without `*` it goes through the URL parser
 * (so `0x7f.1`, `LOCALHOST.`, `Bücher.de` and `[::1]` mean what they mean in a URL); with `*`,
 * each literal label is made ASCII.
 */
export function canonicalHostGlob(glob: string): string | undefined {
  const g = glob.trim();
  if (!g) return undefined;
  if (!g.includes('*')) {
    try {
      return canonicalHost(new URL(`http://${g.includes(':') && !g.startsWith('[') ? `[${g}]` : g}/`).hostname);
    } catch {
      return undefined;
    }
  }
  const labels = canonicalHost(g).split('.').map((l) => (l.includes('*') ? l : domainToASCII(l) || l));
  return labels.join('.');
}
