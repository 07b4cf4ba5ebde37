import { rmSync } from 'node:fs';
import { blockedReason, confirmDownload, hasGuard } from '../safety/guard';
import { fenceInline } from '../safety/untrusted';
import type { Tab } from '../session/tab';
import type { Scope } from './scope';

/**
 * Safety checks for what an action set off beyond its own tab: tabs it opened (popups,
 * window.open, target=_blank) must be on allowed origins, and executable downloads must be
 * confirmed. Only when tools run behind the safety gate; bare tool runs pay nothing.
 */

/** How long a new tab may take to show where it goes before we judge it by what we know. */
const NEW_TAB_WAIT_MS = 2500;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The URLs a new tab is heading to or has landed on: the target's URL (known before the page
 * commits) and, once committed, the document's own (after redirects). Returns early on a blocked one.
 */
async function blockedUrlOf(scope: Scope, tab: Tab): Promise<{ url: string; reason: string } | undefined> {
  const deadline = Date.now() + NEW_TAB_WAIT_MS;
  for (;;) {
    await tab.refreshInfo();
    const href = await tab.evaluate<string>('location.href', 1000).catch(() => undefined);
    for (const url of [tab.url, href]) {
      if (!url || url === 'about:blank') continue;
      const reason = blockedReason(scope.ctx, url);
      if (reason) return { url, reason };
    }
    const committed = !!href && href !== 'about:blank';
    if (committed || tab.closed || Date.now() >= deadline) return undefined;
    await sleep(100);
  }
}

/** Closes new tabs on blocked origins (else leaves them on about:blank); returns lines for the result. */
export async function screenOpenedTabs(scope: Scope): Promise<string[]> {
  if (!hasGuard(scope.ctx)) return [];
  const lines: string[] = [];
  for (const tab of scope.browserObs.peekOpenedTabs()) {
    // Closed already (by the tool that opened it, or the page): nothing left to screen.
    if (tab.closed) {
      scope.browserObs.dropOpenedTab(tab);
      continue;
    }
    const blocked = await blockedUrlOf(scope, tab);
    if (!blocked) continue;
    scope.browserObs.dropOpenedTab(tab);
    try {
      await scope.browser.closeTab(tab.targetId);
    } catch {
      await (await tab.session()).send('Page.navigate', { url: 'about:blank' }).catch(() => undefined);
    }
    lines.push(`BLOCKED_BY_POLICY: the action opened a new tab on ${fenceInline(blocked.url)}, which the safety policy blocks (${blocked.reason}); the tab was closed. Do not retry; stay on allowed sites.`);
  }
  return lines;
}

/**
 * Asks about each download not yet screened (executables only; confirmDownload decides). Refused:
 * cancelled if still running, deleted if it finished, and marked so the result says so.
 */
export async function screenDownloads(scope: Scope): Promise<void> {
  if (!hasGuard(scope.ctx)) return;
  for (const d of scope.browserObs.downloads.values()) {
    if (d.screened) continue;
    d.screened = true;
    try {
      await confirmDownload(scope.ctx, d.filename, d.url);
    } catch (e) {
      d.blocked = e instanceof Error ? e.message : String(e);
      if (d.state === 'inProgress') await scope.browser.connection.send('Browser.cancelDownload', { guid: d.guid }).catch(() => undefined);
      else if (d.state === 'completed') rmSync(d.path, { force: true });
      d.state = 'canceled';
    }
  }
}
