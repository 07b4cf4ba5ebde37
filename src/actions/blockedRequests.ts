import { BrowserAgentError } from '../base/errors';
import { fenceInline } from '../base/untrusted';
import type { LandedPageCheck, PolicyAct } from '../session/landedPageCheck';
import { describeBlocked, type BlockedRequest } from '../session/blockedLog';
import type { RequestGuard } from '../session/requestGuard';
import type { Scope } from './scopeTypes';
import { ignore } from '../base/ignore';

/**
 * What the session stopped, left or closed while an action ran, told to the model with the rule
 * that fired. The session enforces (the request guard before a request is sent, the landed-page
 * check after a page shows a blocked origin); this only reads its records and reports them.
 */

const HINT = 'Do not retry; stay on allowed sites or ask the user to change the allowed/blocked origins.';

/** How long a new tab may take to show where it goes before the result is composed. */
const NEW_TAB_WAIT_MS = 2500;

/** A main-frame navigation of this tab that the guard stopped since `mark`. */
export function blockedNavigation(scope: Scope, mark: number): BlockedRequest | undefined {
  return scope.browser.guard.blockedSince(mark, [scope.tab.targetId]).find((b) => b.navigation && (!b.frameId || b.frameId === scope.tab.targetId));
}

/** Leaves the error page a stopped navigation left (for about:blank) and gives the error naming the rule. */
export async function leaveBlocked(scope: Scope, b: BlockedRequest): Promise<BrowserAgentError> {
  await scope.page.send('Page.navigate', { url: 'about:blank' }).catch((e) => ignore(e, 'the tab may be gone; the blocked error is what the caller needs'));
  return blockedError(b);
}

/** The error naming what was stopped and the rule; `then` says what became of the tab. */
export function blockedError(b: BlockedRequest, then?: string): BrowserAgentError {
  b.reported = true;
  return new BrowserAgentError('BLOCKED_BY_POLICY', `${describeBlocked(b).replace(/^BLOCKED_BY_POLICY: /, '')}${then ? ` ${then}` : ''}`, HINT);
}

function describe(b: BlockedRequest): string {
  b.reported = true;
  return describeBlocked(b);
}

/** One line for the model about what the session did to a page; `by` says who opened the tab when it was closed. */
export function describeAct(a: PolicyAct, by: 'action' | 'earlier'): string {
  const url = fenceInline(a.url);
  const rule = `rule ${a.rule}: ${a.reason}`;
  if (a.did === 'closed') {
    return by === 'action'
      ? `BLOCKED_BY_POLICY: the action opened a new tab on ${url}, which the safety policy blocks (${rule}); the tab was closed. Do not retry; stay on allowed sites.`
      : `BLOCKED_BY_POLICY: since the last call, a new tab on ${url} was opened, which the safety policy blocks (${rule}); the session closed it.`;
  }
  const how = a.cause === 'restored' ? ' (restored from the back/forward cache, which sends no request)' : a.cause === 'changed' ? ' (it was already showing when the rules applied)' : a.cause === 'took' ? ' (it was showing when the agent took the tab up)' : '';
  return `BLOCKED_BY_POLICY: ${by === 'action' ? 'during the action' : 'since the last call'}, tab ${a.targetId.slice(0, 8)} showed ${url}${how}, which the safety policy blocks (${rule}); the session left it for about:blank.`;
}

/** The error for the action's own tab: the page it ended on was left (or the tab closed) by the session. */
function landedError(a: PolicyAct): BrowserAgentError {
  const how = a.cause === 'restored' ? ' (restored from the back/forward cache)' : '';
  const then = a.did === 'closed' ? 'the session closed the tab' : 'the session left the page for about:blank';
  return new BrowserAgentError('BLOCKED_BY_POLICY', `The action ended on ${fenceInline(a.url)}${how}, which the safety policy blocks (rule ${a.rule}: ${a.reason}); ${then}.`, HINT);
}

/**
 * After an action settled: a navigation of the tab the guard stopped, or a page of the tab the
 * session left, fails the action; other stopped requests and what the session did to other tabs
 * (new tabs the action opened and the session closed) become lines of the result, at most a few
 * requests, with a count of the rest. `mark`/`actMark`: the guard's and the session's marks from
 * before the action.
 */
export async function reportBlocked(scope: Scope, mark: number, actMark: number): Promise<string[]> {
  const check = scope.browser.landedCheck;
  // New tabs the action opened: the session judges them once they show where they go.
  await Promise.all(scope.browserObs.peekOpenedTabs().map((t) => check.settled(t.targetId, NEW_TAB_WAIT_MS)));
  await check.idle();
  const acts = check.take((a) => a.seq > actMark);
  for (const a of acts) if (a.did === 'closed') dropOpened(scope, a.targetId);
  const nav = blockedNavigation(scope, mark);
  if (nav) throw await leaveBlocked(scope, nav);
  const mine = acts.find((a) => a.targetId === scope.tab.targetId);
  if (mine) throw mine.stopped ? blockedError(mine.stopped) : landedError(mine);
  const all = scope.browser.guard.blockedSince(mark);
  const lines = all.slice(0, 5).map(describe);
  if (all.length > 5) lines.push(`BLOCKED_BY_POLICY: ${all.length - 5} more requests to blocked origins were stopped.`);
  for (const b of all.slice(5)) b.reported = true;
  lines.push(...acts.map((a) => describeAct(a, 'action')));
  return lines;
}

function dropOpened(scope: Scope, targetId: string) {
  const tab = scope.browserObs.peekOpenedTabs().find((t) => t.targetId === targetId);
  if (tab) scope.browserObs.dropOpenedTab(tab);
}

/**
 * What the session did before this call that nobody has told the model yet (a page that left on
 * its own, a popup opened between calls, a page left when the rules changed): lines for the next
 * result. Acts for requests whose stop was already reported are dropped.
 */
export function takePolicyNotes(check: LandedPageCheck | undefined, upTo: number | undefined): string[] {
  if (!check || upTo === undefined) return [];
  return check
    .take((a) => a.seq <= upTo)
    .filter((a) => !a.stopped?.reported)
    .map((a) => {
      if (a.stopped) a.stopped.reported = true;
      return describeAct(a, 'earlier');
    });
}

/**
 * Requests the guard stopped before this call that no result has named yet (a worker's or a page's request
 * after the last action had settled, a tab in the background): lines for the next result, a few and a count.
 * Call after takePolicyNotes (a stop that a left or closed page explains is told there).
 */
export function takeBlockedNotes(guard: RequestGuard | undefined, upTo: number | undefined): string[] {
  if (!guard || upTo === undefined) return [];
  const fresh = guard.blockedSince(0).filter((b) => b.seq <= upTo && !b.reported);
  for (const b of fresh) b.reported = true;
  const lines = fresh.slice(0, 3).map((b) => describeBlocked(b).replace(/^BLOCKED_BY_POLICY: /, 'BLOCKED_BY_POLICY: since the last call, '));
  if (fresh.length > 3) lines.push(`BLOCKED_BY_POLICY: since the last call, ${fresh.length - 3} more requests to blocked origins were stopped.`);
  return lines;
}
