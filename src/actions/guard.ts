import { BrowserAgentError } from '../base/errors';
import type { ActionPreview, ToolContext } from '../contract/types';
import { originOf } from '../base/originGlob';
import type { Decision, Rating } from '../contract/decision';

/** What the checks below read of the safety settings (a PolicySettings, safety/settings.ts, is one). */
export interface GuardSettings {
  executableExtensions: string[];
  secretOrigins: string[];
}

/**
 * Checks a tool handler makes while it runs, when a risk only becomes known at execution: a
 * download's file name (executables are confirmed), the secret origins of the call. Origins are
 * not checked here: the session enforces them itself (requestGuard.ts, landedPageCheck.ts) with
 * the rules the decider hands it. The decider registers the guard for the call's context; without
 * one (tools run bare in their own tests) the checks pass.
 */
export interface ExecutionGuard {
  settings(): GuardSettings;
  confirm(rating: Rating, preview?: ActionPreview): Promise<Decision>;
  /** Set once the call is decided: what was rated, for the check at the moment of use (atUse.ts). */
  atUse?: AtUse;
}

const guards = new WeakMap<ToolContext, ExecutionGuard>();

export function registerGuard(ctx: ToolContext, guard: ExecutionGuard): void {
  guards.set(ctx, guard);
}

export function guardOf(ctx: ToolContext): ExecutionGuard | undefined {
  return guards.get(ctx);
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

/** What the decider leaves for the moment of use: the preview it rated, its rating, and how to rate again. */
export interface AtUse {
  preview?: ActionPreview;
  decided: Rating;
  /** Rates the call again with `target` as its element (`slot` target), or as the element dropped onto (`dropTarget`). */
  rate(target: NonNullable<ActionPreview['target']>, slot?: 'target' | 'dropTarget'): Promise<Rating>;
}
