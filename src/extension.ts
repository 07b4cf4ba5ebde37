import * as vscode from 'vscode';
import { registerAudit, type AuditApi } from './audit/register';
import { SessionManager } from './session/manager';
import { createLog } from './vscode/log';
import { registerSessionCommands } from './vscode/sessionCommands';
import { readSessionSettings } from './vscode/settings';
import { createStatusBar } from './vscode/statusBar';

let sessions: SessionManager | undefined;
let audit: AuditApi | undefined;

export interface BrowserAgentApi {
  sessions: SessionManager;
  audit: AuditApi;
}

export function activate(context: vscode.ExtensionContext): BrowserAgentApi {
  const { channel, logger } = createLog();
  sessions = new SessionManager(readSessionSettings, logger);
  context.subscriptions.push(channel, createStatusBar(sessions), ...registerSessionCommands(sessions, channel));
  audit = registerAudit(context, channel);
  logger.info('Browser Agent activated.');
  return { sessions, audit };
}

/** A browser we launched must never outlive the extension host. */
export async function deactivate(): Promise<void> {
  await audit?.dispose(); // fsyncs open task logs
  audit = undefined;
  await sessions?.dispose();
  sessions = undefined;
}
