import { BrowserAgentError } from '../base/errors';
import type { ExecutionGuard, ToolContext } from '../contract/types';
import { originOf } from '../base/originGlob';
import type { Rating } from '../contract/decision';

/**
 * The call's guard, for a check an action makes before it acts. A context with none came from code that ran
 * the tool around the safety gate: the action is refused, never let through (fail closed). `undefined` back:
 * the context says NO_POLICY (the tools' own tests), so there is nothing to check.
 */
export function guardFor(ctx: ToolContext, refusal: string): ExecutionGuard | undefined {
  const guard = ctx.guard;
  if (!guard) {
    throw new BrowserAgentError(
      'BLOCKED_BY_POLICY',
      `${refusal}: this call came without its safety check (its context has no guard), so nothing was done.`,
      'The program ran the tool around the safety gate; that is a fault in it, not in the page. Do not retry; tell the user.',
    );
  }
  return 'noPolicy' in guard ? undefined : guard;
}

/** Call before saving a download. Confirms executables (modal / elicitation); throws BLOCKED_BY_POLICY when refused. */
export async function confirmDownload(ctx: ToolContext, fileName: string, url?: string): Promise<void> {
  const guard = guardFor(ctx, `The download of "${fileName}" was stopped`);
  if (!guard) return;
  const s = guard.settings();
  const ext = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (!ext || !s.executableExtensions.includes(ext)) return;
  const rating: Rating = { level: 'confirm', rule: 'executable-download', reason: `The page is downloading the executable file "${fileName}"${url ? ` from ${originOf(url) ?? url}` : ''}` };
  const d = await guard.confirm(rating, { message: `Downloading "${fileName}"`, url });
  if (d.outcome === 'refused' || d.outcome === 'blocked' || d.outcome === 'needs-confirmation') throw new BrowserAgentError('BLOCKED_BY_POLICY', `The download of "${fileName}" was declined.`, 'Do not retry the download; continue another way or ask the user.');
}
