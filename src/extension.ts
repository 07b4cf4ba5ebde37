import * as vscode from 'vscode';
import { SessionManager } from './session/manager';
import { createLog } from './vscode/log';
import { registerCopilotTools } from './vscode/copilot';
import type { SafetyApi } from './vscode/safety';
import { registerSessionCommands } from './vscode/sessionCommands';
import { readSessionSettings } from './vscode/settings';
import { createStatusBar } from './vscode/statusBar';

let sessions: SessionManager | undefined;

export interface BrowserAgentApi {
  sessions: SessionManager;
  /** The safety gate; `setConfirmer` lets the e2e suite replace the modal. */
  safety: SafetyApi;
}

export function activate(context: vscode.ExtensionContext): BrowserAgentApi {
  const { channel, logger } = createLog();
  sessions = new SessionManager(readSessionSettings, logger);
  context.subscriptions.push(channel, createStatusBar(sessions), ...registerSessionCommands(sessions, channel));
  const safety = registerCopilotTools(context, sessions, channel);
  logger.info('Browser Agent activated.');
  return { sessions, safety };
}

/** A browser we launched must never outlive the extension host. */
export async function deactivate(): Promise<void> {
  await sessions?.dispose();
  sessions = undefined;
}
