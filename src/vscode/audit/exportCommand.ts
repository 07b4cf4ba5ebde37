import { join } from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../base/errors';
import { exportTask } from '../../audit/export';
import type { TaskItem } from './historyView';
import { pickTask } from './pickTask';

/** "Export Task…": a recorded task as a folder with a Playwright test, where the person picks. */
export async function exportFromHistory(root: string, item?: TaskItem): Promise<void> {
  const dir = await pickTask(root, 'Export Task', item);
  if (!dir) return;
  const target = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: 'Export here', title: 'Export Task' });
  if (!target?.[0]) return;
  try {
    const out = await exportTask(dir, join(target[0].fsPath, `browser-agent-task-${dir.split(/[\\/]/).pop()}`));
    const open = await vscode.window.showInformationMessage(`Browser Agent: exported to ${out.dir}.`, 'Open Playwright Test');
    if (open) await vscode.window.showTextDocument(vscode.Uri.file(out.specFile));
  } catch (e) {
    void vscode.window.showErrorMessage(`Browser Agent: export failed: ${errorMessage(e)}`);
  }
}
