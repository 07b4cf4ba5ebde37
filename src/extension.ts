import * as vscode from 'vscode';
import { registerAgent, type AgentApi } from './agent/register';
import { SessionManager } from './session/manager';
import { allTools } from './tools/registry';
import { createLog } from './vscode/log';
import { registerSessionCommands } from './vscode/sessionCommands';
import { readSessionSettings } from './vscode/settings';
import { createStatusBar } from './vscode/statusBar';

let sessions: SessionManager | undefined;

export interface BrowserAgentApi {
  sessions: SessionManager;
  agent: AgentApi;
}

export function activate(context: vscode.ExtensionContext): BrowserAgentApi {
  const { channel, logger } = createLog();
  sessions = new SessionManager(readSessionSettings, logger);
  context.subscriptions.push(channel, createStatusBar(sessions), ...registerSessionCommands(sessions, channel));
  // The safety `decide` and audit `onStep` hooks plug in here when those land.
  const agent = registerAgent(context, { sessions, tools: () => allTools, hooks: () => ({}) });
  logger.info('Browser Agent activated.');
  return { sessions, agent };
}

/** A browser we launched must never outlive the extension host. */
export async function deactivate(): Promise<void> {
  await sessions?.dispose();
  sessions = undefined;
}
