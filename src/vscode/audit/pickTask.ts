import * as vscode from 'vscode';
import { taskDescription } from '../../audit/present';
import { listTasks } from '../../audit/reader';
import { TaskItem } from './historyView';

/** The task a command is about: the Task History item it was run on, else one the person picks. */
export async function pickTask(root: string, title: string, item?: TaskItem): Promise<string | undefined> {
  if (item instanceof TaskItem) return item.task.dir;
  const tasks = await listTasks(root);
  if (!tasks.length) {
    void vscode.window.showInformationMessage('Browser Agent: no recorded tasks yet.');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    // The Task History's words (Done · 3 steps · Chat · 22 Nov, 10:05), local time.
    tasks.map((t) => ({ label: t.goal, description: taskDescription(t), dir: t.dir })),
    { title, matchOnDescription: true },
  );
  return pick?.dir;
}
