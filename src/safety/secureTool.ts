import { runTool, type RunHooks, type StepEvent } from '../tools/runner';
import type { ToolContext, ToolDefinition, ToolResult } from '../tools/types';
import type { SecretVault } from './secrets';

/**
 * The tool as front doors run it: `{{secret:NAME}}` placeholders are resolved only for the
 * handler (the runner, the decider and step events keep seeing placeholders), and every known
 * secret value is scrubbed from the result and its preview.
 */
export function secureTool<T extends ToolDefinition>(tool: T, vault: SecretVault): T {
  return {
    ...tool,
    preview: tool.preview ? async (input, ctx) => vault.redactDeep(await tool.preview!(input, ctx)) : undefined,
    handler: async (input, ctx) => vault.redactResult(await tool.handler(await vault.resolveDeep(input), ctx)),
  };
}

/** An onStep hook that passes on events with secret values (typed passwords included) scrubbed. */
export function redactingStepHook(vault: SecretVault, next?: RunHooks['onStep']): RunHooks['onStep'] {
  if (!next) return undefined;
  return (event: StepEvent) => next({ ...event, input: vault.redactDeep(event.input), preview: vault.redactDeep(event.preview), result: vault.redactResult(event.result) });
}

/**
 * The one way front doors (Copilot, chat panel, replay) run a tool: secrets resolved for the
 * handler only, the safety gate, and step events and results scrubbed of secret values.
 */
export function guardedRunner(decide: NonNullable<RunHooks['decide']>, vault: SecretVault) {
  return (tool: ToolDefinition, input: unknown, ctx: ToolContext, onStep?: RunHooks['onStep']): Promise<ToolResult> =>
    runTool(secureTool(tool, vault), input, ctx, { decide, onStep: redactingStepHook(vault, onStep) });
}
