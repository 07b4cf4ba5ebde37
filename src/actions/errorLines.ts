import type { ResultParts } from '../base/untrusted';
import type { Tab } from '../session/tab';
import type { ConsoleError } from './observer';
import { requestLine, urlOf } from './requestLines';

/** Failed requests and console errors named one by one in a result (each); more are counted. */
const MAX_LINES = 5;

/** `example.com` for `www.example.com` and `api.example.com`; an IP address or a one-label host as it is. */
function siteOf(host: string): string {
  return /^[\d.]+$|^\[|^[^.]+$/.test(host) ? host : host.split('.').slice(-2).join('.');
}

/** Whether `url` (a request's, a script's) belongs to the site of `page`; unknown counts as the page's own. */
function ownSite(url: string | undefined, page: URL | undefined): boolean {
  const host = url ? urlOf(url)?.hostname : undefined;
  return !page || !host || siteOf(host) === siteOf(page.hostname);
}

export interface ErrorsSeen {
  /** The tabs the action touched (the one acted on, and a tab it opened and made active). */
  tabs: Tab[];
  /** Console errors of the acted-on tab since the last call, and how many there were. */
  console: { errors: ConsoleError[]; total: number };
  /**
   * Whether other sites' failures are the action's own: an action that stayed on its document started them
   * (a click's API call to another host), while a page load brings ads' and trackers' by the dozen.
   */
  othersCaused: boolean;
}

/**
 * An action's failed requests and console errors: the page's own site's (and those the action caused) one by one
 * in the page lines, other sites' counted in one line; the full lists stay one call away.
 */
export function errorLines({ tabs, console, othersCaused }: ErrorsSeen): ResultParts {
  const page = urlOf(tabs[tabs.length - 1].url);
  const failed: string[] = [];
  let otherFailed = 0;
  for (const t of tabs) {
    const at = urlOf(t.url);
    for (const r of t.log.takeFailures()) {
      if (othersCaused || ownSite(r.url, at)) failed.push(`Failed request: ${requestLine(r, at)}`);
      else otherFailed++;
    }
  }
  const errors: string[] = [];
  let otherErrors = 0;
  // Past the ones kept between calls, errors are only counted.
  const unkept = console.total - console.errors.length;
  for (const e of console.errors) {
    if (othersCaused || ownSite(e.url, page)) errors.push(`Console error: ${e.text}`);
    else otherErrors++;
  }
  const said: string[] = [];
  const more = [failed.length > MAX_LINES ? `${failed.length - MAX_LINES} more failed requests` : '', errors.length + unkept > MAX_LINES ? `${Math.max(0, errors.length - MAX_LINES) + unkept} more console errors` : ''].filter(Boolean);
  if (more.length) said.push(`${more.join(' and ')}: browser_network_requests and browser_console_messages list them.`);
  const others = [otherFailed ? `${otherFailed} failed requests` : '', otherErrors ? `${otherErrors} console errors` : ''].filter(Boolean);
  if (others.length) said.push(`Other sites: ${others.join(', ')} (browser_network_requests, browser_console_messages).`);
  return { said, page: [...failed.slice(0, MAX_LINES), ...errors.slice(0, MAX_LINES)] };
}
