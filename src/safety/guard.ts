import { BrowserAgentError } from '../errors';
import type { ActionPreview, ToolContext } from '../tools/types';
import { checkUrl, originOf } from './origins';
import type { PolicySettings } from './settings';
import type { Decision, Rating } from './types';

/**
 * Checks a tool handler makes while it runs, when a risk only becomes known at execution:
 * where a navigation landed (redirects), the frame an action goes to, a download's file name.
 * The decider registers the guard for the call's context; without one (tools run bare in their
 * own tests) the checks pass.
 */
export interface ExecutionGuard {
  settings(): PolicySettings;
  confirm(rating: Rating, preview?: ActionPreview): Promise<Decision>;
}

const guards = new WeakMap<ToolContext, ExecutionGuard>();

export function registerGuard(ctx: ToolContext, guard: ExecutionGuard): void {
  guards.set(ctx, guard);
}

export function guardOf(ctx: ToolContext): ExecutionGuard | undefined {
  return guards.get(ctx);
}

const blockedHint = 'Do not retry; go to an allowed site or ask the user to change browserAgent.safety settings.';

/**
 * Call after a navigation lands, with the final URL (after redirects), and before acting in a
 * frame with the frame's URL. Throws BLOCKED_BY_POLICY. The caller should leave the page (e.g.
 * navigate to about:blank) so nothing else happens on it.
 */
export function assertLandedAllowed(ctx: ToolContext, url: string, what = 'The navigation landed on'): void {
  const guard = guards.get(ctx);
  if (!guard) return;
  const v = checkUrl(url, guard.settings());
  if (!v.allowed) throw new BrowserAgentError('BLOCKED_BY_POLICY', `${what} ${url}, which the safety policy blocks: ${v.reason}.`, blockedHint);
}

/** True when tools run behind the safety gate for this context (so execution-time checks apply). */
export function hasGuard(ctx: ToolContext): boolean {
  return guards.has(ctx);
}

/** Why the policy forbids `url` for this context, or undefined (allowed, or no gate). For checks that must not throw. */
export function blockedReason(ctx: ToolContext, url: string): string | undefined {
  const guard = guards.get(ctx);
  if (!guard) return undefined;
  const v = checkUrl(url, guard.settings());
  return v.allowed ? undefined : v.reason;
}

/** Call before saving a download. Confirms executables (modal / elicitation); throws BLOCKED_BY_POLICY when refused. */
export async function confirmDownload(ctx: ToolContext, fileName: string, url?: string): Promise<void> {
  const guard = guards.get(ctx);
  if (!guard) return;
  const s = guard.settings();
  const ext = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (!ext || !s.executableExtensions.includes(ext)) return;
  const rating: Rating = { level: 'confirm', rule: 'executable-download', reason: `The page is downloading the executable file "${fileName}"${url ? ` from ${originOf(url) ?? url}` : ''}` };
  const d = await guard.confirm(rating, { message: `Downloading "${fileName}"`, url });
  if (d.outcome === 'refused' || d.outcome === 'blocked' || d.outcome === 'needs-confirmation') throw new BrowserAgentError('BLOCKED_BY_POLICY', `The download of "${fileName}" was declined.`, 'Do not retry the download; continue another way or ask the user.');
}

/**
 * For the action executor, after an action settled: reads where the page is now (only when a
 * policy is active, so bare tool runs pay nothing) and, if that page is not allowed, leaves it
 * (`leave`, e.g. navigate to about:blank) and throws BLOCKED_BY_POLICY.
 */
export async function enforceLandedPage(ctx: ToolContext, currentUrl: () => Promise<string>, leave: () => Promise<unknown>): Promise<void> {
  if (!guards.has(ctx)) return;
  const url = await currentUrl().catch(() => undefined);
  if (!url) return;
  try {
    assertLandedAllowed(ctx, url, 'The action ended on');
  } catch (e) {
    await leave().catch(() => undefined);
    throw e;
  }
}
