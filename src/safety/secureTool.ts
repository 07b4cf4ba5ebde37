import type { RunHooks, StepEvent } from '../runtime/runner';
import type { ToolContext, ToolDefinition } from '../contract/types';
import { BrowserAgentError } from '../base/errors';
import { guardFor } from '../actions/guard';
import { checkSecretOrigins, misplacedSecretError, secretNames, typedSecretValues } from './secretPlacement';
import type { SecretVault } from './secrets';

/**
 * At execution, the page the value would be typed on must still be one its secrets are bound to
 * (the page may have moved since the decision). A call without a guard types no secret; NO_POLICY binds none.
 */
async function assertBoundOrigins(toolName: string, input: unknown, ctx: ToolContext): Promise<void> {
  const entries = guardFor(ctx, `${toolName} was refused`)?.settings().secretOrigins ?? [];
  if (!entries.length) return;
  const url = (await ctx.tab()).url;
  const { wrongOrigin } = checkSecretOrigins(secretNames(input), [url], entries);
  if (wrongOrigin.length) {
    const w = wrongOrigin[0];
    throw new BrowserAgentError('BLOCKED_BY_POLICY', `${toolName} was refused: the secret ${w.name} is bound to ${w.origins.join(', ')} and the page is now ${url}; nothing was typed.`, 'Go to the site the secret belongs to first.');
  }
}

/**
 * The tool as front doors run it: `{{secret:NAME}}` placeholders are resolved only for the
 * handler (the runner, the decider and step events keep seeing placeholders), and every known
 * secret value is scrubbed from the result and its preview.
 */
export function secureTool<T extends ToolDefinition>(tool: T, vault: SecretVault): T {
  // A script (browser_run_script) passes placeholders on to its calls, each resolved and checked there; it never
  // sees a value itself. Its result is scrubbed like any other.
  if (tool.composite) {
    return {
      ...tool,
      preview: tool.preview ? async (input, ctx) => vault.redactDeep(await tool.preview!(input, ctx)) : undefined,
      handler: async (input, ctx) => {
        try {
          return vault.redactResult(await tool.handler(input, ctx));
        } catch (e) {
          throw vault.redactError(e);
        }
      },
    };
  }
  // Placeholders are resolved only where a value is typed into a field; anywhere else the call is refused.
  return {
    ...tool,
    preview: tool.preview ? async (input, ctx) => vault.redactDeep(await tool.preview!(input, ctx)) : undefined,
    handler: async (input, ctx) => {
      const { typed, misplaced } = typedSecretValues(tool.name, input);
      if (misplaced.length) throw misplacedSecretError(tool.name, misplaced);
      if (typed.length) await assertBoundOrigins(tool.name, input, ctx);
      try {
        return vault.redactResult(await tool.handler(await vault.resolveDeep(input), ctx));
      } catch (e) {
        throw vault.redactError(e);
      }
    },
  };
}

/** An onStep hook that passes on events with secret values (typed passwords included) scrubbed. */
export function redactingStepHook(vault: SecretVault, next?: RunHooks['onStep']): RunHooks['onStep'] {
  if (!next) return undefined;
  return (event: StepEvent) => next({ ...event, input: vault.redactDeep(event.input), preview: vault.redactDeep(event.preview), result: vault.redactResult(event.result) });
}
