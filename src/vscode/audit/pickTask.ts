import * as vscode from 'vscode';
import { taskDescription } from '../../audit/present';
import { listTasks } from '../../audit/reader';
import { TaskItem } from './historyView';

/** The task a command is about: the Task History item it was run on, else one the person picks. */
/**
 * A Task History item, or `{ task: { dir } }` / `{ task: { dirs } }` (a thread's folders, oldest first) from the chat
 * panel's buttons: folders of this history only.
 */
export type TaskRef = TaskItem | { task?: { dir?: string; dirs?: unknown } };

/** Like pickTask, for commands that act on a thread whole (replay, export): its folders, oldest first. */
export async function pickTasks(root: string, title: string, item?: TaskRef): Promise<string[] | undefined> {
  const dirs = item && !(item instanceof TaskItem) ? item.task?.dirs : undefined;
  if (Array.isArray(dirs) && dirs.length) {
    const known = new Set((await listTasks(root)).map((t) => t.dir));
    if (dirs.every((d) => typeof d === 'string' && known.has(d))) return dirs as string[];
  }
  const dir = await pickTask(root, title, item);
  return dir ? [dir] : undefined;
}

export async function pickTask(root: string, title: string, item?: TaskRef): Promise<string | undefined> {
  if (item instanceof TaskItem) return item.task.dir;
  const dir = item?.task?.dir;
  if (typeof dir === 'string' && (await listTasks(root)).some((t) => t.dir === dir)) return dir;
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
