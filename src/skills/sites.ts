import { originMatches } from '../base/originGlob';

/**
 * One site glob against a URL. A glob is an origin glob as the safety settings write them
 * (`github.com`, `*.example.com`, `https://shop.example.com`, `localhost:*`), optionally followed
 * by a path glob (`github.com/*\/issues*`) in which `*` matches anything, `/` included.
 * The host part reuses the safety policy's matcher so both read globs the same way.
 */
export function siteMatches(glob: string, url: string | undefined): boolean {
  if (!url) return false;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (!/^https?:$/.test(u.protocol)) return false;
  const g = glob.trim();
  if (!g) return false;
  if (g === '*') return true;
  const m = /^((?:[a-z*][a-z0-9+.*-]*:\/\/)?[^/]+)(\/.*)?$/i.exec(g);
  if (!m) return false;
  const [, origin, path] = m;
  if (!originMatches(origin, url)) return false;
  if (!path || path === '/' || path === '/*') return true;
  const re = new RegExp(`^${path.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'i');
  return re.test(u.pathname + u.search);
}

/** The host names a glob names, for the text index (`*.github.com/x` → `github.com`). */
export function hostWords(glob: string): string {
  const m = /^(?:[a-z*][a-z0-9+.*-]*:\/\/)?([^/:]+)/i.exec(glob.trim());
  if (!m) return '';
  const host = m[1].replace(/^\*\.?/, '').replace(/\*/g, '');
  // `github.com` → "github.com github": people write "on GitHub", not "on github.com".
  const label = host.split('.').filter((p) => p && !/^(www|com|org|net|io|cn|co|uk|de|fr|jp)$/.test(p));
  return [host, ...label].join(' ');
}

export function skillMatchesUrl(sites: readonly string[], url: string | undefined): boolean {
  return sites.some((s) => siteMatches(s, url));
}

/** The site a URL belongs to, for "the run reached a new site": its origin (http/https only). */
export function siteKey(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return /^https?:$/.test(u.protocol) ? u.origin : undefined;
  } catch {
    return undefined;
  }
}
