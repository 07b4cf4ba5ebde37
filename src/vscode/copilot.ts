import * as vscode from 'vscode';
import type { SessionManager } from '../session/manager';
import type { RunHooks } from '../runtime/runner';
import { allTools } from '../tools/registry';
import { registerLanguageModelTools } from './lmTools';
import { registerMcpServerProvider } from './mcpProvider';
import { registerRunToolCommand } from './runToolCommand';
import { registerSafety, type SafetyApi } from './safety';

/**
 * Safety gate + Copilot tools + the published MCP server, in one call from activate().
 * `onStep` is the audit/chat observer (events arrive with secrets scrubbed).
 */
export function registerCopilotTools(context: vscode.ExtensionContext, sessions: SessionManager, channel: vscode.LogOutputChannel, onStep?: RunHooks['onStep'], runToolOnStep = onStep): SafetyApi {
  const safety = registerSafety(context, (m) => channel.info(m));
  context.subscriptions.push(
    ...registerLanguageModelTools({ sessions, safety, tools: allTools, onStep, log: (m) => channel.warn(m) }),
    ...registerMcpServerProvider(context, sessions, context.secrets),
    // Run Tool… is a person's call, not Copilot's: recorded apart.
    registerRunToolCommand(sessions, safety, allTools, channel, runToolOnStep),
  );
  return safety;
}
