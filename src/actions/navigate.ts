import { BrowserAgentError } from '../errors';
import { blockedNavigation, leaveBlocked } from './blockedRequests';
import type { ActionOutcome, Scope } from './scope';

/**
 * Checks a URL a model asked for: http(s) and about:blank always, other schemes only when the
 * settings allow them. Bare host names (`example.com/docs`) get https:// like in an address bar.
 */
export function checkUrl(raw: string, allowedSchemes: string[] = []): string {
  const text = raw.trim();
  if (!text) throw new BrowserAgentError('INVALID_INPUT', 'The URL is empty.', 'Give a full URL such as https://example.com.');
  if (text === 'about:blank') return text;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) && !/^[^:/]+:\d+(\/|$)/.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new BrowserAgentError('INVALID_INPUT', `"${text.slice(0, 200)}" is not a valid URL.`, 'Give a full URL such as https://example.com/page.');
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (scheme === 'http' || scheme === 'https') {
    if (!url.hostname) throw new BrowserAgentError('INVALID_INPUT', `"${text.slice(0, 200)}" has no host.`, 'Give a full URL such as https://example.com/page.');
    return url.href;
  }
  if (allowedSchemes.map((s) => s.replace(/:$/, '').toLowerCase()).includes(scheme)) return url.href;
  throw new BrowserAgentError('BLOCKED_BY_POLICY', `Navigation to ${scheme}: URLs is not allowed.`, 'Only http, https and about:blank are allowed (other schemes can be enabled in the settings by the user).');
}

export async function navigate(s: Scope, url: string): Promise<ActionOutcome> {
  s.pending = { text: `Navigating to ${url} (the current page asked before leaving)` };
  const mark = s.browser.guard.mark();
  const res = await s.page.send('Page.navigate', { url });
  const stopped = res.errorText === 'net::ERR_BLOCKED_BY_CLIENT' && blockedNavigation(s, mark);
  if (stopped) throw await leaveBlocked(s, stopped);
  if (res.errorText && res.errorText !== 'net::ERR_ABORTED') {
    throw new BrowserAgentError('NAVIGATION_FAILED', `Could not open ${url}: ${res.errorText}.`, /NAME_NOT_RESOLVED|CONNECTION_REFUSED|ADDRESS_UNREACHABLE/.test(res.errorText) ? 'Check the address; the site may be down or unreachable from here.' : 'Check the URL, or try again.');
  }
  return { text: `Navigated to ${url}` };
}

export async function goHistory(s: Scope, delta: -1 | 1): Promise<ActionOutcome> {
  const { currentIndex, entries } = await s.page.send('Page.getNavigationHistory');
  const target = entries[currentIndex + delta];
  if (!target) throw new BrowserAgentError('NAVIGATION_FAILED', `There is no page to go ${delta < 0 ? 'back' : 'forward'} to.`, 'Use browser_navigate with a URL.');
  s.pending = { text: `Going ${delta < 0 ? 'back' : 'forward'} to ${target.url}` };
  await s.page.send('Page.navigateToHistoryEntry', { entryId: target.id });
  return { text: `Went ${delta < 0 ? 'back' : 'forward'} to ${target.url}` };
}

export async function reload(s: Scope, ignoreCache = false): Promise<ActionOutcome> {
  s.pending = { text: `Reloading ${s.tab.url}` };
  await s.page.send('Page.reload', { ignoreCache });
  return { text: `Reloaded ${s.tab.url}${ignoreCache ? ' (bypassing the cache)' : ''}` };
}
