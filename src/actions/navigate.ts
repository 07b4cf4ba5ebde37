import { BrowserAgentError, isAgentError } from '../base/errors';
import { fenceUrl } from '../base/untrusted';
import { shortUrl } from '../snapshot/links';
import { blockedNavigation, leaveBlocked } from './blockedRequests';
import type { ActionOutcome, Scope } from './scopeTypes';
import { ignore } from '../base/ignore';

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

/** Default cap for a navigation to commit (the server answered and the new document replaced the old). */
const COMMIT_CAP_MS = 20_000;

/**
 * Resolves true once the tab's main frame committed a new document (optionally the one with
 * `loaderId`) or navigated within its document; false at the cap. Listens from its creation, so
 * it is made before the navigation is sent.
 */
function commitWatch(s: Scope): { wait(capMs: number, loaderId?: string): Promise<boolean>; dispose(): void } {
  const seen: Array<string | undefined> = [];
  let wake = () => {};
  const offs = [
    s.page.on('Page.frameNavigated', (p) => {
      if (p.frame.parentId) return;
      seen.push(p.frame.loaderId);
      wake();
    }),
    s.page.on('Page.navigatedWithinDocument', (p) => {
      if (p.frameId !== s.tab.targetId) return;
      seen.push(undefined);
      wake();
    }),
  ];
  const dispose = () => offs.splice(0).forEach((off) => off());
  return {
    dispose,
    async wait(capMs, loaderId) {
      const hit = () => (loaderId ? seen.includes(loaderId) : seen.length > 0);
      const deadline = Date.now() + capMs;
      try {
        while (!hit() && Date.now() < deadline) {
          await new Promise<void>((r) => {
            const t = setTimeout(r, deadline - Date.now());
            wake = () => {
              clearTimeout(t);
              r();
            };
          });
        }
        return hit();
      } finally {
        dispose();
      }
    },
  };
}

/** Stops a navigation that did not commit in time, so the tab stays where the error says it is. */
async function abandon(s: Scope, url: string, capMs: number): Promise<BrowserAgentError> {
  await s.page.send('Page.stopLoading', undefined, 2000).catch((e) => ignore(e, 'a tab that does not answer stays where it is; the error says so'));
  return notCommitted(s, url, capMs);
}

function notCommitted(s: Scope, what: string, capMs: number): BrowserAgentError {
  return new BrowserAgentError('TIMEOUT', `${what} did not load within ${Math.round(capMs / 1000)} s: the tab still shows ${fenceUrl(s.tab.url)}.`, 'The server may be slow, or the page is busy; try again, or take a browser_snapshot to see where the tab is.');
}

/** Opens `url` in the tab; returns only once the new document committed (never a success while the old page stays). */
export async function navigate(s: Scope, url: string, capMs = COMMIT_CAP_MS): Promise<ActionOutcome> {
  s.pending = { text: `Navigating to ${url} (the current page asked before leaving)` };
  const commit = commitWatch(s);
  const mark = s.browser.guard.mark();
  let res;
  try {
    // Page.navigate itself waits for the server's first answer; a server that never answers must not hold it for the CDP timeout.
    res = await s.page.send('Page.navigate', { url }, capMs);
  } catch (e) {
    commit.dispose();
    if (isAgentError(e, 'TIMEOUT') && !s.tab.dialog) throw await abandon(s, url, capMs);
    throw e;
  }
  const stopped = res.errorText === 'net::ERR_BLOCKED_BY_CLIENT' && blockedNavigation(s, mark);
  if (stopped) {
    commit.dispose();
    throw await leaveBlocked(s, stopped);
  }
  if (res.errorText && res.errorText !== 'net::ERR_ABORTED') {
    commit.dispose();
    throw new BrowserAgentError('NAVIGATION_FAILED', `Could not open ${url}: ${res.errorText}.`, /NAME_NOT_RESOLVED|CONNECTION_REFUSED|ADDRESS_UNREACHABLE/.test(res.errorText) ? 'Check the address; the site may be down or unreachable from here.' : 'Check the URL, or try again.');
  }
  // Downloads and cancelled navigations commit nothing; same-document ones have no loader.
  if (res.errorText || res.isDownload || !res.loaderId) {
    commit.dispose();
    return { text: `Navigated to ${url}` };
  }
  if (!(await commit.wait(capMs, res.loaderId))) throw await abandon(s, url, capMs);
  return { text: `Navigated to ${url}` };
}

export async function goHistory(s: Scope, delta: -1 | 1, capMs = COMMIT_CAP_MS): Promise<ActionOutcome> {
  const { currentIndex, entries } = await s.page.send('Page.getNavigationHistory');
  const target = entries[currentIndex + delta];
  if (!target) throw new BrowserAgentError('NAVIGATION_FAILED', `There is no page to go ${delta < 0 ? 'back' : 'forward'} to.`, 'Use browser_navigate with a URL.');
  s.pending = { text: `Going ${delta < 0 ? 'back' : 'forward'} to ${fenceUrl(target.url)}` };
  const commit = commitWatch(s);
  try {
    await s.page.send('Page.navigateToHistoryEntry', { entryId: target.id });
  } catch (e) {
    commit.dispose();
    throw e;
  }
  if (!(await commit.wait(capMs))) throw notCommitted(s, `Going ${delta < 0 ? 'back' : 'forward'} to ${fenceUrl(target.url)}`, capMs);
  // The result names the page it landed on (URL and title, fenced once); the entry's URL would say it twice.
  return { text: `Went ${delta < 0 ? 'back' : 'forward'}` };
}

export async function reload(s: Scope, ignoreCache = false, capMs = COMMIT_CAP_MS): Promise<ActionOutcome> {
  const url = s.tab.url;
  s.pending = { text: `Reloading ${fenceUrl(url)}` };
  const commit = commitWatch(s);
  try {
    await s.page.send('Page.reload', { ignoreCache });
  } catch (e) {
    commit.dispose();
    throw e;
  }
  if (!(await commit.wait(capMs))) throw notCommitted(s, `Reloading ${fenceUrl(url)}`, capMs);
  return { text: `Reloaded the page${ignoreCache ? ' (bypassing the cache)' : ''}`, page: [`URL: ${shortUrl(url, url)}`] };
}
