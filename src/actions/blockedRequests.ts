import { BrowserAgentError } from '../errors';
import { describeBlocked, type BlockedRequest } from '../session/requestGuard';
import type { Scope } from './scope';

/**
 * What the session's request guard stopped while an action ran, told to the model with the rule
 * that fired. The guard enforces; this only reports (and leaves the error page a blocked
 * navigation of the tab leaves behind).
 */

const HINT = 'Do not retry; stay on allowed sites or ask the user to change the allowed/blocked origins.';

/** A main-frame navigation of this tab that the guard stopped since `mark`. */
export function blockedNavigation(scope: Scope, mark: number): BlockedRequest | undefined {
  return scope.browser.guard.blockedSince(mark, [scope.tab.targetId]).find((b) => b.navigation && (!b.frameId || b.frameId === scope.tab.targetId));
}

/** Leaves the error page a stopped navigation left (for about:blank) and gives the error naming the rule. */
export async function leaveBlocked(scope: Scope, b: BlockedRequest): Promise<BrowserAgentError> {
  await scope.page.send('Page.navigate', { url: 'about:blank' }).catch(() => undefined);
  return blockedError(b);
}

/** The error naming what was stopped and the rule; `then` says what became of the tab. */
export function blockedError(b: BlockedRequest, then?: string): BrowserAgentError {
  return new BrowserAgentError('BLOCKED_BY_POLICY', `${describeBlocked(b).replace(/^BLOCKED_BY_POLICY: /, '')}${then ? ` ${then}` : ''}`, HINT);
}

/**
 * After an action settled: a stopped navigation of the tab fails the action (the tab leaves the
 * error page for about:blank); other stopped requests (frames, scripts, fetches, other tabs)
 * become lines of the result, at most a few, with a count of the rest.
 */
export async function reportBlocked(scope: Scope, mark: number): Promise<string[]> {
  const nav = blockedNavigation(scope, mark);
  if (nav) throw await leaveBlocked(scope, nav);
  const all = scope.browser.guard.blockedSince(mark);
  const lines = all.slice(0, 5).map(describeBlocked);
  if (all.length > 5) lines.push(`BLOCKED_BY_POLICY: ${all.length - 5} more requests to blocked origins were stopped.`);
  return lines;
}
