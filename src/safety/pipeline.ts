import { runTool, type RunHooks } from '../runtime/runner';
import type { Rating } from '../contract/decision';
import type { ToolContext, ToolDefinition, ToolResult } from '../contract/types';
import type { Decider } from './decider';
import type { SecretVault } from './secrets';
import { redactingStepHook, secureTool } from './secureTool';

type Decide = NonNullable<RunHooks['decide']>;
type OnStep = NonNullable<RunHooks['onStep']>;

/** What the pipeline hands the audit log for each call: the decision to wrap, and the secret values to keep out. */
export interface RecordedCall {
  decide: Decide;
  /** The audit reads page URLs and titles itself, after the step was scrubbed: it must know the vault's values too. */
  knownSecrets(): Iterable<string>;
}

/**
 * Writes a front door's calls to the audit log: wraps the decision (to note the page, and take the screenshot,
 * before the action) and sees each step after its secrets are scrubbed. audit/ sits above this layer, so each
 * front door hands its own in (audit/hooks.ts's createAuditHooks, given the task its calls belong to).
 */
export type CallRecorder = (call: RecordedCall) => { decide: Decide; onStep: OnStep };

/** What differs between front doors. Everything else about a call is the same for all of them. */
export interface PipelineOptions {
  /** The window's (or process's) safety gate: one per policy and confirmer, so "allow for this site" is shared. */
  decider: Decider;
  vault: SecretVault;
  /** The audit task the calls go to (the chat: one per run; Copilot: one per day). Absent: nothing is recorded, only for `--audit-dir off`. */
  record?: CallRecorder;
}

export interface CallOptions {
  /** Copilot asked the person in its own dialog before the call (prepareInvocation): that rating is not asked again. */
  preconfirmed?: Rating;
}

export interface ToolPipeline {
  /** A registry tool as the front door offers it: `{{secret:NAME}}` resolved for its handler only, preview and result scrubbed. */
  tool<T extends ToolDefinition>(def: T): T;
  /** runTool's hooks, for front doors that call runTool themselves with `tool(…)`s (the MCP server, the chat loop, replay). */
  hooks(call?: CallOptions): RunHooks;
  /** One call of a registry tool through the whole pipeline (Copilot, Run Tool…). */
  run(def: ToolDefinition, input: unknown, ctx: ToolContext, call?: CallOptions): Promise<ToolResult>;
}

/**
 * The one tool pipeline of every front door (MCP, Copilot, chat, Run Tool…, replay): validation, skill gate and
 * preview (runTool) → the safety decision → its guard, in the handler's context, for the checks at the moment of
 * use → the handler, secrets resolved → the step scrubbed of secrets → the audit log.
 */
export function createToolPipeline(o: PipelineOptions): ToolPipeline {
  const tool = <T extends ToolDefinition>(def: T): T => secureTool(def, o.vault);
  const hooks = (call: CallOptions = {}): RunHooks => {
    const decide = o.decider.decideWith(call.preconfirmed);
    const recorded = o.record?.({ decide, knownSecrets: () => o.vault.known() });
    // Scrubbed before recorded: the log never sees a value the vault knows. A script's calls (browser_run_script)
    // come back through this same pipeline, each decided on its own: a preconfirmation never carries over.
    return { decide: recorded?.decide ?? decide, onStep: redactingStepHook(o.vault, recorded?.onStep), nested: { tool, hooks: () => hooks() } };
  };
  return { tool, hooks, run: (def, input, ctx, call) => runTool(tool(def), input, ctx, hooks(call)) };
}
