import type { ToolContext, ToolResult } from '../contract/types';
import { observeBrowser, observeTab } from './observer';
import { reportBlocked } from './blockedRequests';
import { screenDownloads } from './policyScreen';
import { composeResult } from './report';
import { crashedError, hungError, isResponsive, PROBE_MS, stopHungPage, watchInputHang, type Recovery } from './hung';
import { BROWSER_PROBE_MS, checkBrowser, unresponsiveError } from '../session/liveness';
import { leaveDialogs } from './leaveDialogs';
import { carryRefs } from '../snapshot/carryRefs';
import { SettleWatch, type SettleReport } from './settle';
import type { Scope, ActionOutcome } from './scopeTypes';
import { ignore } from '../base/ignore';

export interface ScopeOptions {
  /** The action leaves the page (navigate, reload, history): a hung page is stopped instead of refused. */
  leavesPage?: boolean;
}

/**
 * The browser, tab and observers for one tool call. A page that does not answer a short probe is
 * hung: tools that leave the page stop it first; others fail at once with PAGE_HUNG rather than
 * waiting out every CDP timeout.
 */
export async function openScope(ctx: ToolContext, opts: ScopeOptions = {}): Promise<Scope> {
  const browser = await ctx.browser();
  let tab = await ctx.tab();
  let page = await tab.session();
  let r: Recovery | undefined;
  // A crashed renderer answers nothing: say so at once instead of probing (and calling it hung); a
  // navigation loads a new renderer into the same tab.
  if (tab.crashed && !opts.leavesPage) throw crashedError(tab);
  // Leaving a page that holds an alert/confirm/prompt (maybe one after another): dismissed, or stopped.
  if (opts.leavesPage && tab.dialog) r = await leaveDialogs(browser, tab, page);
  if (!r && !tab.crashed && !(await isResponsive(tab, page))) {
    if (tab.crashed && !opts.leavesPage) throw crashedError(tab); // it crashed while we probed
    // Not the page but the whole browser (frozen, or its connection stalled): nothing will answer; say so, drop it.
    if (!(await checkBrowser(browser.connection, PROBE_MS))) throw unresponsiveError(browser.kind, PROBE_MS + BROWSER_PROBE_MS);
    if (!opts.leavesPage) throw hungError(tab);
    r = await stopHungPage(browser, tab, page);
  }
  const recovered = r?.text;
  if (r?.replacedTabId) {
    const old = tab;
    tab = browser.getTab(r.replacedTabId);
    carryRefs([], old, tab, 'on the page that hung (its tab was replaced)'); // its refs give STALE_REF, never a new page's element
    page = await tab.session();
  }
  const [browserObs, tabObs] = await Promise.all([observeBrowser(browser, ctx.settings.downloadsDir), observeTab(tab)]);
  // Another client of a shared browser may have pointed downloads at its folder, or left (Chrome then
  // falls back to its default folder): the acting client points them at its own again.
  if (browser.shared) await browserObs.claimDownloads().catch((e) => ignore(e, 'a failed claim leaves the folder as it was; the action goes on'));
  return { ctx, browser, tab, page, browserObs, tabObs, recovered };
}

/** Cap for an afterSettle look: a page still busy gets no note rather than a held result. */
const AFTER_SETTLE_MS = 2000;

export interface PerformOptions {
  /** Run even while a JavaScript dialog is open (only browser_handle_dialog). */
  allowDialog?: boolean;
  /** Cap for the settle after the action; default: min(settings.maxWaitMs, 10 s). */
  settleCapMs?: number;
  /** Skip the settle (read-only tools). */
  settle?: boolean;
  /** The action leaves the page; see ScopeOptions. */
  leavesPage?: boolean;
}

/**
 * Runs one page-changing action: refuses while a dialog blocks the page, watches from just before
 * the action until the page settled, and turns what happened into a short result for the model.
 */
export async function perform(ctx: ToolContext, opts: PerformOptions, action: (s: Scope) => Promise<ActionOutcome>): Promise<ToolResult> {
  const scope = await openScope(ctx, { leavesPage: opts.leavesPage });
  if (!opts.allowDialog) scope.tab.assertNoDialog();
  const before = { url: scope.tab.url, title: scope.tab.title, tabId: scope.tab.targetId };
  const guardMark = scope.browser.guard.mark();
  const actMark = scope.browser.landedCheck.mark();
  const watch = opts.settle === false ? undefined : new SettleWatch(scope.tab, scope.page, scope.tabObs, scope.browserObs);
  let outcome: ActionOutcome;
  let offDialog = () => {};
  const dialogOpened = new Promise<ActionOutcome>((resolve) => {
    const on = () => resolve({ ...(scope.pending ?? { text: 'Acted on the page' }), text: `${scope.pending?.text ?? 'Acted on the page'}; it opened a dialog` });
    scope.tab.once('dialog', on);
    offDialog = () => scope.tab.off('dialog', on);
  });
  // The page may close its own tab in answer to the input (window.close()): the calls still waiting on it get no
  // answer. Only then: a tab that goes with the whole browser (killed, disconnected) is BROWSER_DISCONNECTED.
  const closedByPage = () => scope.tab.closed && !!scope.pending && !scope.browser.connection.closed;
  let offClosed = () => {};
  const tabClosed = new Promise<ActionOutcome>((resolve) => {
    const on = () => closedByPage() && resolve(scope.pending!);
    scope.tab.once('closed', on);
    offClosed = () => scope.tab.off('closed', on);
  });
  // Input the page never acknowledges (its handler never returns) ends in PAGE_HUNG, not the CDP timeout;
  // navigations have caps of their own.
  const hang = opts.allowDialog || opts.leavesPage ? undefined : watchInputHang(scope.tab, scope.page, () => scope.pending?.text, scope.browser.kind);
  const running = action(scope);
  running.catch((e) => ignore(e, 'abandoned when a dialog holds the input call; it resolves once answered'));
  try {
    outcome = opts.allowDialog ? await running : await Promise.race([running, dialogOpened, tabClosed, ...(hang ? [hang.hung] : [])]);
  } catch (e) {
    if (!closedByPage()) {
      watch?.dispose();
      throw e;
    }
    outcome = scope.pending!; // the input went out and the page closed its tab in answer
  } finally {
    offDialog();
    offClosed();
    hang?.stop();
  }
  if (scope.recovered) outcome = { ...outcome, text: `${scope.recovered}. ${outcome.text}` };
  let settle: SettleReport | undefined;
  if (watch) {
    const cap = opts.settleCapMs ?? Math.min(ctx.settings.maxWaitMs, 10_000);
    settle = await watch.settle({ capMs: cap, signal: ctx.signal });
  }
  if (outcome.afterSettle && !scope.tab.dialog) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), AFTER_SETTLE_MS)));
    const line = await Promise.race([outcome.afterSettle().catch((e) => ignore(e, 'the line after settling is a nicety; none is shown')), late]);
    clearTimeout(timer);
    if (line) outcome = { ...outcome, details: [...(outcome.details ?? []), line] };
  }
  // Safety, as the session recorded it: requests its guard stopped, pages it left and new tabs it
  // closed (it enforces the origin rules itself); executable downloads are confirmed here.
  const blocked = await reportBlocked(scope, guardMark, actMark);
  await screenDownloads(scope);
  if (blocked.length) outcome = { ...outcome, details: [...(outcome.details ?? []), ...blocked] };
  return composeResult(scope, before, outcome, settle);
}
