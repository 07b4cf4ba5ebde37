import * as vscode from 'vscode';
import { registerAudit, type AuditApi } from './audit/register';
import { SessionManager } from './session/manager';
import { createLog } from './vscode/log';
import { registerCopilotTools } from './vscode/copilot';
import type { SafetyApi } from './vscode/safety';
import { replayDeps } from './vscode/replayDeps';
import { registerSessionCommands } from './vscode/sessionCommands';
import { readSessionSettings } from './vscode/settings';
import { createStatusBar } from './vscode/statusBar';

let sessions: SessionManager | undefined;
let audit: AuditApi | undefined;

export interface BrowserAgentApi {
  sessions: SessionManager;
  /** The safety gate; `setConfirmer` lets the e2e suite replace the modal. */
  safety: SafetyApi;
  audit: AuditApi;
}

export function activate(context: vscode.ExtensionContext): BrowserAgentApi {
  const { channel, logger } = createLog();
  sessions = new SessionManager(readSessionSettings, logger);
  context.subscriptions.push(channel, createStatusBar(sessions), ...registerSessionCommands(sessions, channel));
  audit = registerAudit(context, channel);
  // Copilot's calls land in one implicit audit task per day and window.
  const copilotAudit = audit.hooks({ implicit: { source: 'copilot', per: 'day' } });
  const safety = registerCopilotTools(context, sessions, channel, copilotAudit.onStep);
  audit.setReplayDeps(replayDeps(sessions, safety));
  logger.info('Browser Agent activated.');
  return { sessions, safety, audit };
}

/** A browser we launched must never outlive the extension host. */
export async function deactivate(): Promise<void> {
  await audit?.dispose(); // fsyncs open task logs
  audit = undefined;
  await sessions?.dispose();
  sessions = undefined;
}
