import { join } from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../base/errors';
import { exportTask } from '../../audit/export';
import { pickTasks, type TaskRef } from './pickTask';

/** "Export Task…": a recorded task (or a chat thread whole) as a folder with a Playwright test, where the person picks. */
export async function exportFromHistory(root: string, item?: TaskRef): Promise<void> {
  const dirs = await pickTasks(root, 'Export Task', item);
  if (!dirs) return;
  const target = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: 'Export here', title: 'Export Task' });
  if (!target?.[0]) return;
  try {
    const out = await exportTask(dirs, join(target[0].fsPath, `browser-agent-task-${dirs[0].split(/[\\/]/).pop()}`));
    const open = await vscode.window.showInformationMessage(`Browser Agent: exported to ${out.dir}.`, 'Open Playwright Test');
    if (open) await vscode.window.showTextDocument(vscode.Uri.file(out.specFile));
  } catch (e) {
    void vscode.window.showErrorMessage(`Browser Agent: export failed: ${errorMessage(e)}`);
  }
}
