import { BrowserAgentError, errorMessage } from '../base/errors';
import { RELAY_INTERRUPTED } from '../session/relayProtocol';
import type { ToolContext, ToolDefinition, ToolResult } from '../contract/types';
import { ignore } from '../base/ignore';

// Chrome stops the companion extension's service worker whenever it likes (src/daemon/relayServer.ts).
// A CDP call it was running when it stopped has no answer; the daemon sends only plain reads again
// and fails the rest with RELAY_INTERRUPTED. Here, one level up, the whole tool call is the unit:
// a tool that never changes the page runs once more; any other says what happened and is not repeated.

function interrupted(e: unknown): boolean {
  return errorMessage(e).includes(RELAY_INTERRUPTED);
}

function resultInterrupted(r: ToolResult): boolean {
  return !!r.isError && r.content.some((c) => c.type === 'text' && c.text.includes(RELAY_INTERRUPTED));
}

/** Runs the tool's handler; a read-only tool cut off by a stopped extension worker runs once more. */
export async function runHandler(tool: ToolDefinition, input: unknown, ctx: ToolContext): Promise<ToolResult> {
  let result: ToolResult;
  try {
    result = await tool.handler(input as never, ctx);
  } catch (e) {
    if (!interrupted(e)) throw e;
    if (tool.readOnly) return again(tool, input, ctx);
    throw notRepeated(tool.name, e);
  }
  if (!resultInterrupted(result)) return result;
  if (tool.readOnly) return again(tool, input, ctx);
  throw notRepeated(tool.name, result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'));
}

/** How long the cut-off call may still keep the page busy before the read runs again. */
const MAX_WAIT_MS = 30_000;

async function again(tool: ToolDefinition, input: unknown, ctx: ToolContext): Promise<ToolResult> {
  // The cut-off call may still be running in the page (a long read of a big page): wait until the
  // page answers, or the new run's hung-page probe would take the page for hung.
  try {
    const page = await (await ctx.tab()).session();
    await page.send('Runtime.evaluate', { expression: '0', returnByValue: true }, MAX_WAIT_MS);
  } catch (e) {
    ignore(e, 'the new run finds out what is wrong and says so');
  }
  return tool.handler(input as never, ctx);
}

function notRepeated(tool: string, cause: unknown): BrowserAgentError {
  const call = /\b([A-Z][A-Za-z]+\.[a-z][A-Za-z]+)\b/.exec(errorMessage(cause))?.[1];
  return new BrowserAgentError(
    'RELAY_INTERRUPTED',
    `${tool} was cut off: Chrome stopped the Browser Agent extension's service worker while it ran${call ? ` (${call} got no answer)` : ''}. It was not run again, because it may already have taken effect.`,
    'The extension has reconnected. Take a snapshot to see whether the action happened, and repeat it only if it did not.',
  );
}
