import type { RunHooks, StepEvent } from '../tools/runner';
import type { ToolDefinition } from '../tools/types';
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
