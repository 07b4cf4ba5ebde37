import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { stepHtml } from '../../audit/present';
import { TaskItem, type StepItem } from './historyView';

/** "Show Step": one recorded step (its call, result, screenshot) in a panel of its own. */
export async function openStep(item: StepItem): Promise<void> {
  const panel = vscode.window.createWebviewPanel('browserAgent.auditStep', `Step ${item.step.step}: ${item.step.tool}`, vscode.ViewColumn.Active, {
    localResourceRoots: [vscode.Uri.file(item.taskDir)],
  });
  panel.webview.html = stepHtml(item.step, (f) => panel.webview.asWebviewUri(vscode.Uri.file(join(item.taskDir, f))).toString(), panel.webview.cspSource);
}

/** "Open Audit Log Folder": the folder (or a task's log) in the file manager, or its path on a remote host. */
export async function openAuditFolder(root: string, item?: TaskItem): Promise<unknown> {
  await fs.mkdir(root, { recursive: true, mode: 0o700 });
  const target = vscode.Uri.file(item instanceof TaskItem ? join(item.task.dir, 'log.jsonl') : root);
  // A remote or web host (code-server, SSH) has no file manager on the person's side.
  if (!vscode.env.remoteName) return vscode.commands.executeCommand('revealFileInOS', target);
  const pick = await vscode.window.showInformationMessage(`Browser Agent audit logs: ${target.fsPath}`, 'Copy Path', 'Open in New Window');
  if (pick === 'Copy Path') await vscode.env.clipboard.writeText(target.fsPath);
  if (pick === 'Open in New Window') await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(root), { forceNewWindow: true });
}
