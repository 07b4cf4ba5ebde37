import * as vscode from 'vscode';
import { listTasks } from '../../audit/reader';
import { clearHistory } from '../chat/chatHistory';

/** "Clear Task History…": asks, then deletes every finished task; the count, or undefined when the person said no. */
export async function askToClearHistory(root: string, refresh: () => void): Promise<number | undefined> {
  const tasks = await listTasks(root);
  if (!tasks.length) {
    void vscode.window.showInformationMessage('Browser Agent: the task history is already empty.');
    return 0;
  }
  const pick = await vscode.window.showWarningMessage(
    `Delete all ${tasks.length} recorded task${tasks.length === 1 ? '' : 's'}?`,
    { modal: true, detail: 'This deletes their logs, conversations and screenshots from the audit folder, for the chat panel and Task History alike. Running tasks are kept. This cannot be undone.' },
    { title: 'Keep Them' },
    { title: 'Delete' },
    { title: 'Cancel', isCloseAffordance: true },
  );
  if (pick?.title !== 'Delete') return undefined;
  const n = await clearHistory(root);
  refresh();
  void vscode.window.showInformationMessage(`Browser Agent: deleted ${n} recorded task${n === 1 ? '' : 's'}.`);
  return n;
}
