import * as vscode from 'vscode';
import type { SessionManager } from '../session/manager';
import type { CallRecorder } from '../safety/pipeline';
import { allTools } from '../tools/registry';
import { registerLanguageModelTools } from './lmTools';
import { registerMcpServerProvider } from './mcpProvider';
import { registerRunToolCommand } from './runToolCommand';
import { registerSafety, type SafetyApi } from './safety';

/** Where Copilot's calls and Run Tool…'s calls are recorded (the audit tasks they go to). */
export interface CopilotRecorders {
  copilot?: CallRecorder;
  runTool?: CallRecorder;
}

/** Safety gate + Copilot tools + the published MCP server, in one call from activate(). */
export function registerCopilotTools(context: vscode.ExtensionContext, sessions: SessionManager, channel: vscode.LogOutputChannel, record: CopilotRecorders = {}): SafetyApi {
  const safety = registerSafety(context, (m) => channel.info(m));
  context.subscriptions.push(
    ...registerLanguageModelTools({ sessions, safety, pipeline: safety.pipeline(record.copilot), tools: allTools, log: (m) => channel.warn(m) }),
    ...registerMcpServerProvider(context, sessions, context.secrets),
    // Run Tool… is a person's call, not Copilot's: recorded apart.
    registerRunToolCommand(sessions, safety.pipeline(record.runTool), allTools, channel),
  );
  return safety;
}
