import { BrowserAgentError } from '../base/errors';
import { fenceUrl } from '../base/untrusted';
import type { BrowserSession } from '../session/browserSession';
import type { CdpSession } from '../session/cdp';
import { answersWithin } from '../session/probe';
import { BROWSER_PROBE_MS, checkBrowser, unresponsiveError } from '../session/liveness';
import type { Tab } from '../session/tab';
import { ignore } from '../base/ignore';

/**
 * A page whose main thread never yields (`while (true) {}`) answers no CDP call that needs the
 * renderer: every action would wait for its full timeout, and a same-site navigation never
 * commits (the new document would load into the same busy process). We find out with a trivial
 * evaluate first, and leave such a page by paths that do not need its renderer.
 */

/** How long a trivial evaluate may take before the page counts as hung. Busy pages answer in ms. */
export const PROBE_MS = 2000;

/** True when the page's main thread answers a trivial evaluate within `ms`. */
export async function isResponsive(tab: Tab, page: CdpSession, ms = PROBE_MS): Promise<boolean> {
  // A JavaScript dialog also blocks evaluation; that is a modal state with its own tool, not a hang.
  if (tab.dialog) return true;
  return (await answersWithin(page, ms)) || !!tab.dialog;
}

export function hungError(tab: Tab): BrowserAgentError {
  return new BrowserAgentError(
    'PAGE_HUNG',
    `The page ${fenceUrl(tab.url)} is not responding: a script has kept it busy for over ${PROBE_MS / 1000} s.`,
    'Leave it with browser_navigate (or browser_reload, browser_navigate_back): Browser Agent stops the hung page first. Other tools cannot act on it.',
  );
}

export function crashedError(tab: Tab): BrowserAgentError {
  return new BrowserAgentError(
    'PAGE_CRASHED',
    `The page ${fenceUrl(tab.url)} crashed (its renderer process died); nothing on it can be read or used.`,
    'Open it again with browser_navigate (or browser_reload), or switch to another tab with browser_tabs. The tab itself is still there.',
  );
}

/** How long an input call may wait for the page before we probe whether it hung. */
const INPUT_GRACE_MS = 3000;

/**
 * Watches an action whose input the page has not acknowledged: the browser holds an input call until
 * the page's handler returns, so a handler that never returns (`onclick = () => { for (;;) {} }`) would
 * hold the call for the whole CDP timeout. Rejects with PAGE_HUNG once input went out, the call is still
 * waiting after INPUT_GRACE_MS, and the page fails the probe; a busy but live page passes it.
 */
export function watchInputHang(tab: Tab, page: CdpSession, sent: () => string | undefined, kind: 'launched' | 'attached'): { hung: Promise<never>; stop(): void } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    const check = async () => {
      const what = sent();
      if (stopped) return;
      if (what && !(await isResponsive(tab, page))) {
        if (!stopped && !(await checkBrowser(page.connection, INPUT_GRACE_MS + PROBE_MS))) return void reject(unresponsiveError(kind, INPUT_GRACE_MS + PROBE_MS + BROWSER_PROBE_MS));
        if (!stopped) reject(new BrowserAgentError('PAGE_HUNG', `${what.replace(/\.$/, '')}, and the page has not responded since: a script has kept it busy for over ${(INPUT_GRACE_MS + PROBE_MS) / 1000} s.`, 'Leave it with browser_navigate (or browser_reload, browser_navigate_back): Browser Agent stops the hung page first. Other tools cannot act on it.'));
        return;
      }
      if (!stopped) timer = setTimeout(check, INPUT_GRACE_MS);
    };
    timer = setTimeout(check, INPUT_GRACE_MS);
  });
  hung.catch((e) => ignore(e, 'awaited by whoever needs it; here only kept from counting as unhandled'));
  return {
    hung,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** What happened to a hung page, for the model (one line). */
export type Recovery = { text: string; replacedTabId?: string };

function waitCrashed(tab: Tab, ms: number): Promise<boolean> {
  if (tab.crashed) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (v: boolean) => {
      clearTimeout(timer);
      tab.off('crashed', onCrash);
      clearInterval(poll);
      resolve(v);
    };
    const onCrash = () => done(true);
    const timer = setTimeout(() => done(tab.crashed), ms);
    // The browser-level Target.targetCrashed sets the flag without a tab event.
    const poll = setInterval(() => tab.crashed && done(true), 50);
    tab.on('crashed', onCrash);
  });
}

/**
 * Stops the hung renderer so the tab can be navigated again. First `Page.crash`, which the renderer
 * handles off its main thread and which keeps the tab (same target id, same history, same place in
 * the tab list); the tab then shows the "crashed" page and accepts `Page.navigate`. If that does not
 * work (a browser that refuses it), the tab is closed from the browser target and a fresh one opened
 * in its place.
 */
export async function stopHungPage(browser: BrowserSession, tab: Tab, page: CdpSession, why = `The page ${fenceUrl(tab.url)} was hung (a script never yielded)`): Promise<Recovery> {
  const crashed = waitCrashed(tab, 3000);
  // The renderer dies before it can answer; the reply never comes.
  page.send('Page.crash', undefined, 1000).catch((e) => ignore(e, 'the renderer dies before it can answer'));
  if (await crashed) return { text: `${why}; its renderer was stopped` };
  const fresh = await browser.replaceTab(tab.targetId);
  return { text: `${why}; the tab was closed and replaced by a new one (id ${fresh.targetId.slice(0, 8)})`, replacedTabId: fresh.targetId };
}
