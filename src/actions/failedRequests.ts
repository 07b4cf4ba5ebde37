import { fenceInline } from '../base/untrusted';
import type { Tab } from '../session/tab';
import { requestLine, urlOf } from './requestLines';

/** Failed requests named one by one in a result; more are counted. */
const MAX_FAILED_LINES = 5;

/** `example.com` for `www.example.com` and `api.example.com`; an IP address or a one-label host as it is. */
function siteOf(host: string): string {
  return /^[\d.]+$|^\[|^[^.]+$/.test(host) ? host : host.split('.').slice(-2).join('.');
}

/**
 * `Requests that failed (2 …):` and a line each, for an action's result: what failed since the last call in
 * these tabs. The page's own site's come first; other sites' (ads and trackers that a network blocks fail by
 * the dozen) fill the room left and are counted.
 */
export function failedRequestLines(tabs: Tab[]): string[] {
  const own: string[] = [];
  const others: string[] = [];
  for (const t of tabs) {
    const page = urlOf(t.url);
    for (const r of t.log.takeFailures()) {
      const host = urlOf(r.url)?.hostname;
      const mine = !page || !host || siteOf(host) === siteOf(page.hostname);
      (mine ? own : others).push(requestLine(r, page));
    }
  }
  const all = [...own, ...others];
  if (!all.length) return [];
  const shown = all.slice(0, MAX_FAILED_LINES);
  const more = all.length > shown.length ? `, ${shown.length} shown${others.length ? `, ${others.length} to other sites` : ''}` : '';
  return [`Requests that failed (${all.length}${more}; browser_network_requests with id shows one whole, page text):`, ...shown.map((l) => `  ${fenceInline(l)}`)];
}
