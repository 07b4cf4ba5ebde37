import { enforceLandedPage } from '../safety/guard';
import type { BrowserSession } from '../session/browserSession';
import type { CdpSession } from '../session/cdp';
import type { Tab } from '../session/tab';
import type { TargetFingerprint, ToolContext, ToolResult } from '../tools/types';
import { observeBrowser, observeTab, type BrowserObserver, type TabObserver } from './observer';
import { reportBlocked } from './blockedRequests';
import { screenDownloads, screenOpenedTabs } from './policyScreen';
import { composeResult } from './report';
import { SettleWatch, type SettleReport } from './settle';

/** Everything one action needs: the browser, the tab it acts in, its page session and observers. */
export interface Scope {
  ctx: ToolContext;
  browser: BrowserSession;
  tab: Tab;
  page: CdpSession;
  tabObs: TabObserver;
  browserObs: BrowserObserver;
  /**
   * Set by an operation just before it sends input: what it is doing. If the input opens a
   * JavaScript dialog, the browser holds the input call until the dialog is answered, so the
   * result is composed from this instead.
   */
  pending?: ActionOutcome;
}

export async function openScope(ctx: ToolContext): Promise<Scope> {
  const browser = await ctx.browser();
  const tab = await ctx.tab();
  const page = await tab.session();
  const [browserObs, tabObs] = await Promise.all([observeBrowser(browser, ctx.settings.downloadsDir), observeTab(tab)]);
  return { ctx, browser, tab, page, browserObs, tabObs };
}

export interface ActionOutcome {
  /** Past tense, one line: `Clicked button "Submit"`. */
  text: string;
  target?: TargetFingerprint;
  /** Extra lines (e.g. per-field results of a form fill). */
  details?: string[];
}

export interface PerformOptions {
  /** Run even while a JavaScript dialog is open (only browser_handle_dialog). */
  allowDialog?: boolean;
  /** Cap for the settle after the action; default: min(settings.maxWaitMs, 10 s). */
  settleCapMs?: number;
  /** Skip the settle (read-only tools). */
  settle?: boolean;
}

/**
 * Runs one page-changing action: refuses while a dialog blocks the page, watches from just before
 * the action until the page settled, and turns what happened into a short result for the model.
 */
export async function perform(ctx: ToolContext, opts: PerformOptions, action: (s: Scope) => Promise<ActionOutcome>): Promise<ToolResult> {
  const scope = await openScope(ctx);
  if (!opts.allowDialog) scope.tab.assertNoDialog();
  const before = { url: scope.tab.url, title: scope.tab.title, tabId: scope.tab.targetId };
  const guardMark = scope.browser.guard.mark();
  const watch = opts.settle === false ? undefined : new SettleWatch(scope.tab, scope.page, scope.tabObs, scope.browserObs);
  let outcome: ActionOutcome;
  let offDialog = () => {};
  const dialogOpened = new Promise<ActionOutcome>((resolve) => {
    const on = () => resolve({ ...(scope.pending ?? { text: 'Acted on the page' }), text: `${scope.pending?.text ?? 'Acted on the page'}; it opened a dialog` });
    scope.tab.once('dialog', on);
    offDialog = () => scope.tab.off('dialog', on);
  });
  const running = action(scope);
  running.catch(() => {}); // abandoned when a dialog holds the input call; it resolves once answered
  try {
    outcome = opts.allowDialog ? await running : await Promise.race([running, dialogOpened]);
  } catch (e) {
    watch?.dispose();
    throw e;
  } finally {
    offDialog();
  }
  let settle: SettleReport | undefined;
  if (watch) {
    const cap = opts.settleCapMs ?? Math.min(ctx.settings.maxWaitMs, 10_000);
    settle = await watch.settle({ capMs: cap, signal: ctx.signal });
  }
  // Safety: tabs the action opened must be on allowed origins, executable downloads confirmed,
  // and wherever the action led (redirects included) must still be allowed; otherwise leave it.
  const stopped = await reportBlocked(scope, guardMark);
  const blockedTabs = [...stopped, ...(await screenOpenedTabs(scope))];
  await screenDownloads(scope);
  if (blockedTabs.length) outcome = { ...outcome, details: [...(outcome.details ?? []), ...blockedTabs] };
  await enforceLandedPage(
    ctx,
    async () => (await scope.page.send('Runtime.evaluate', { expression: 'location.href', returnByValue: true })).result.value as string,
    () => scope.page.send('Page.navigate', { url: 'about:blank' }),
  );
  return composeResult(scope, before, outcome, settle);
}
