import { z } from 'zod';
import { BrowserAgentError, errorMessage, isAgentError } from '../base/errors';
import { fenceTitle, fenceUrl } from '../base/untrusted';
import type { Decision } from '../contract/decision';
import { currentPageUrl, isAllowed, narrowingFor, refusalReason } from '../skills/gate';
import type { ActionPreview, ToolContext, ToolDefinition, ToolResult } from '../contract/types';
import { takeNotice, watchContinuity } from './continuity';
import { takeTurn } from './tabLocks';
import { runHandler } from './interrupted';
import { callEnded, callStarted } from './inFlight';
import { describeUnknownArgs, unknownArgs } from './unknownArgs';
import { takeBlockedNotes, takePolicyNotes } from '../actions/blockedRequests';
import { ignore } from '../base/ignore';

/** One executed (or refused) tool call, for the audit log, notifications and the chat panel. */
export interface StepEvent {
  tool: string;
  input: unknown;
  preview?: ActionPreview;
  decision: Decision;
  result: ToolResult;
  startedAt: number;
  durationMs: number;
}

/** What the safety gate answers: its decision, and the guard the handler's checks at the moment of use ask. */
export interface Decided {
  decision: Decision;
  /** Passed to the handler as `ctx.guard`. Absent: the handler's checks at the moment of use refuse. */
  guard?: ToolContext['guard'];
}

export interface RunHooks {
  /**
   * The safety gate: rates the call and, for `confirm`, asks the person. Absent → everything runs on the
   * context's own guard: NO_POLICY in the tools' own tests; none anywhere else, so actions needing a check refuse.
   */
  decide?(tool: ToolDefinition, input: unknown, preview: ActionPreview | undefined, ctx: ToolContext): Promise<Decided>;
  onStep?(event: StepEvent): void | Promise<void>;
  /**
   * How a tool that runs other tools (browser_run_script) runs them: through this same pipeline (the tool as the
   * front door secures it, and fresh hooks of the same gate, vault and audit task). Set by the pipeline
   * (safety/pipeline.ts); absent → the handler gets no ctx.runTool and such a tool refuses.
   */
  nested?: { tool(def: ToolDefinition): ToolDefinition; hooks(): RunHooks };
}

/** zod's issues as one readable sentence a model can act on. */
export function describeZodError(tool: string, error: z.ZodError): string {
  const parts = error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'input'}: ${i.message}`);
  return `Invalid arguments for ${tool}: ${parts.join('; ')}`;
}

export function errorResult(e: unknown): ToolResult {
  const err = isAgentError(e) ? e : new BrowserAgentError('CDP_ERROR', errorMessage(e));
  return { content: [{ type: 'text', text: err.toText() }], isError: true, code: err.code };
}

/**
 * The one path every front door (MCP, Copilot, chat agent, Run Tool…, replay) uses to run a tool,
 * through its tool pipeline (safety/pipeline.ts): validate → skill gate → preview → safety decision
 * → handler, with the decision's guard in its context → step event. Never throws: failures become
 * error results with a code and a hint.
 */
export async function runTool(tool: ToolDefinition, rawInput: unknown, ctx: ToolContext, hooks: RunHooks = {}): Promise<ToolResult> {
  callStarted();
  try {
    return await runCounted(tool, rawInput, ctx, hooks);
  } finally {
    callEnded();
  }
}

async function runCounted(tool: ToolDefinition, rawInput: unknown, ctx: ToolContext, hooks: RunHooks): Promise<ToolResult> {
  const startedAt = Date.now();
  watchContinuity(ctx.sessions);
  const parsed = tool.schema.safeParse(rawInput ?? {});
  let decision: Decision = { rating: { level: 'auto' }, outcome: 'auto' };
  let guard = ctx.guard;
  let preview: ActionPreview | undefined;
  let result: ToolResult;
  // The decision may wait for a person (a confirmation): that time is not the action's duration.
  let decidingMs = 0;
  // What the session did about blocked origins before this call's handler (between calls, or when this call's rules applied).
  let notesUpTo: number | undefined;
  let blockedUpTo: number | undefined;
  const unknown = parsed.success ? unknownArgs(tool.schema, rawInput) : [];
  if (!parsed.success) {
    result = errorResult(new BrowserAgentError('INVALID_INPUT', describeZodError(tool.name, parsed.error), 'Fix the arguments to match the tool schema and call it again.'));
  } else if (unknown.length) {
    result = errorResult(new BrowserAgentError('INVALID_INPUT', describeUnknownArgs(tool.name, unknown), 'Call it again with only the parameters it takes (see its description).'));
  } else {
    let release = () => {};
    try {
      if (ctx.signal?.aborted) throw new BrowserAgentError('CANCELLED', 'Cancelled before it started.');
      // One call at a time per tab (preview, confirmation and action see the same page); other tabs run in parallel.
      const turn = await takeTurn(tool, ctx);
      release = turn.release;
      ctx = turn.ctx;
      // Least privilege for every front door: a skill's allowed-tools for the current site.
      const narrowing = ctx.skills && (await narrowingFor(ctx.skills, await currentPageUrl(ctx)));
      if (narrowing && !isAllowed(narrowing, tool.name)) {
        const reason = refusalReason(narrowing, tool.name);
        decision = { rating: { level: 'block', rule: 'skill-allowed-tools', reason }, outcome: 'blocked' };
        throw new BrowserAgentError('BLOCKED_BY_POLICY', `${reason}.`, 'Use one of the allowed tools; do not retry this one on this site.');
      }
      preview = tool.preview ? await tool.preview(parsed.data, ctx).catch((e) => ignore(e, 'no preview: the decision goes on without it')) : undefined;
      const t0 = Date.now();
      if (hooks.decide) ({ decision, guard } = await hooks.decide(tool, parsed.data, preview, ctx));
      decidingMs = Date.now() - t0;
      notesUpTo = ctx.sessions?.current?.landedCheck?.mark();
      blockedUpTo = ctx.sessions?.current?.guard.mark();
      if (decision.outcome === 'blocked') {
        result = errorResult(new BrowserAgentError('BLOCKED_BY_POLICY', `${tool.name} was blocked by the safety policy${decision.rating.reason ? `: ${decision.rating.reason}` : ''}.`, 'Do not retry this action; choose another way or ask the user.'));
      } else if (decision.outcome === 'needs-confirmation') {
        result = errorResult(needsConfirmation(tool.name, decision.rating.reason, preview?.message));
      } else if (decision.outcome === 'refused') {
        result = errorResult(new BrowserAgentError('BLOCKED_BY_POLICY', `The user declined ${tool.name}${preview ? ` (${preview.message})` : ''}.`, 'Do not repeat it; continue another way or finish and explain.'));
      } else if (ctx.signal?.aborted) {
        // Cancelled while the person was being asked (a script stopped, an MCP cancel): the late answer acts on nothing.
        result = errorResult(new BrowserAgentError('CANCELLED', `${tool.name} was cancelled while waiting for its confirmation; nothing was done.`));
      } else {
        // The guard rides in the handler's context, so every copy of it the handler makes still checks.
        result = await runHandler(tool, parsed.data, { ...ctx, guard, runTool: nestedRunner(hooks) });
      }
    } catch (e) {
      result = errorResult(e);
    } finally {
      release();
    }
  }
  const notes = [...takePolicyNotes(ctx.sessions?.current?.landedCheck, notesUpTo), ...takeBlockedNotes(ctx.sessions?.current?.guard, blockedUpTo)];
  const lost = ctx.sessions?.current?.takeLostActive?.();
  if (lost) notes.push(lostActiveNote(lost));
  if (notes.length) result = withNotice(result, notes.join('\n'));
  // The first result after a relaunch or reattach says so (the model's pages and refs are gone).
  const notice = takeNotice(ctx.sessions);
  if (notice) result = withNotice(result, notice);
  if (hooks.onStep) {
    try {
      await hooks.onStep({ tool: tool.name, input: parsed.success ? parsed.data : rawInput, preview, decision, result, startedAt, durationMs: Math.max(0, Date.now() - startedAt - decidingMs) });
    } catch (e) {
      ignore(e, 'a failing observer never breaks the action');
    }
  }
  return result;
}

/** ctx.runTool for the handler: another tool through the same pipeline, or nothing (the caller then refuses). */
function nestedRunner(hooks: RunHooks): ToolContext['runTool'] {
  const nested = hooks.nested;
  if (!nested) return undefined;
  // The inner call decides for itself: it never inherits the outer call's guard.
  return (def, input, inner, observe) => {
    const hooks = nested.hooks();
    const decide = hooks.decide;
    // The caller may stop its clock while a person answers a confirmation (browser_run_script's time limit).
    const watched: RunHooks = decide && observe?.deciding ? { ...hooks, decide: async (...a) => { const done = observe.deciding!(); try { return await decide(...a); } finally { done(); } } } : hooks;
    return runTool(nested.tool(def), input, { ...inner, guard: undefined, runTool: undefined }, watched);
  };
}

/** The active tab went away without a tool closing it (the page's window.close(), the user, the origin policy). */
function lostActiveNote(lost: { title: string; url: string; now?: { title: string; url: string } }): string {
  const name = (t: { title: string; url: string }) => `${t.title ? `${fenceTitle(t.title)} ` : ''}${fenceUrl(t.url)}`;
  return `Note: the tab ${name(lost)} was closed (by the page itself, the user or the origin policy); ${lost.now ? `the active tab is now ${name(lost.now)}` : 'no tab is open'}.`;
}

function withNotice(r: ToolResult, notice: string): ToolResult {
  const [first, ...rest] = r.content;
  if (first?.type === 'text') return { ...r, content: [{ type: 'text', text: `${notice}\n${first.text}` }, ...rest] };
  return { ...r, content: [{ type: 'text', text: notice }, ...r.content] };
}

/** The action must be confirmed and nobody can be asked (an MCP client without elicitation): say so, and how to permit it. */
function needsConfirmation(toolName: string, reason: string | undefined, what: string | undefined): BrowserAgentError {
  return new BrowserAgentError(
    'BLOCKED_BY_POLICY',
    `${toolName}${what ? ` (${what})` : ''} needs a confirmation${reason ? ` (${reason})` : ''}, and this client cannot show one (it does not support MCP elicitation); nothing was done.`,
    'The user can permit such actions by starting the MCP server with --allow-confirm-actions, or by allow lists (--allowed-origins; --secret-origins NAME@origin for secrets). Do not retry; continue another way or tell the user.',
  );
}
