import type { RequestEntry } from '../session/pageLog';
import { ignore } from '../base/ignore';

/** What a page loads by the dozen and a reader rarely needs, unless it failed. */
export const STATIC = new Set(['Image', 'Font', 'Stylesheet', 'Media', 'Manifest', 'TextTrack']);
const MAX_URL = 300;

export function failedOrError(r: RequestEntry): boolean {
  return !!r.failed || (r.status !== undefined && r.status >= 400);
}

/** `url` parsed, or undefined for what is not one (about:blank parses; a garbled page URL does not). */
export function urlOf(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** Same-origin requests by their path, others whole; long URLs cut (the page chooses them). */
export function showUrl(url: string, page: URL | undefined): string {
  let s = url;
  try {
    const u = new URL(url);
    if (page && u.origin === page.origin) s = u.pathname + u.search;
  } catch (e) {
    ignore(e, 'shown as it came');
  }
  return s.length > MAX_URL ? `${s.slice(0, MAX_URL)}…(+${s.length - MAX_URL} chars)` : s;
}

export function requestLine(r: RequestEntry, page: URL | undefined): string {
  const outcome = r.failed
    ? `failed: ${r.failed}`
    : r.redirectedTo
      ? `${r.status} → ${showUrl(r.redirectedTo, page)}`
      : r.status !== undefined
        ? `${r.status}${r.statusText ? ` ${r.statusText}` : ''}${r.fromCache ? ' (cache)' : ''}${r.finished ? '' : ' (loading)'}`
        : 'pending';
  return `#${r.id} ${r.method} ${showUrl(r.url, page)} ${outcome} [${r.type.toLowerCase()}]${r.frame ? ` (${r.frame})` : ''}`;
}
