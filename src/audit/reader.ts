import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { StepRecord, TaskEndEvent, TaskStartEvent } from './types';

export const LOG_FILE = 'log.jsonl';

export interface LoadedTask {
  dir: string;
  id: string;
  start?: TaskStartEvent;
  steps: StepRecord[];
  end?: TaskEndEvent;
  /** Problems met while reading (a truncated last line, a corrupt line), in words. */
  warnings: string[];
  /** True when the last line was cut off (the writer crashed mid-line). */
  truncated: boolean;
}

/** Parses a task log; broken lines are skipped and reported, never fatal. */
export function parseLog(text: string, dir = '', id = ''): LoadedTask {
  const task: LoadedTask = { dir, id, steps: [], warnings: [], truncated: false };
  const lines = text.split('\n');
  const endsClean = text.endsWith('\n') || text === '';
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const isLast = i === lines.length - 1;
    let ev: any;
    try {
      ev = JSON.parse(line);
    } catch {
      if (isLast && !endsClean) {
        task.truncated = true;
        task.warnings.push(`The last line (${line.length} bytes) is incomplete — the task was interrupted while writing; it was skipped.`);
      } else {
        task.warnings.push(`Line ${i + 1} is not valid JSON and was skipped.`);
      }
      return;
    }
    if (ev?.type === 'task_start') task.start = ev;
    else if (ev?.type === 'step') task.steps.push(ev);
    else if (ev?.type === 'task_end') task.end = ev;
    else task.warnings.push(`Line ${i + 1} has an unknown event type and was skipped.`);
  });
  if (task.start && !task.id) task.id = task.start.taskId;
  if (!task.start) task.warnings.push('The task start event is missing.');
  if (!task.end) task.warnings.push('The task has no end event (still running, or interrupted).');
  return task;
}

export async function loadTask(dir: string): Promise<LoadedTask> {
  const text = await fs.readFile(join(dir, LOG_FILE), 'utf8');
  return parseLog(text, dir, dir.split(/[\\/]/).pop() ?? '');
}

export interface TaskSummary {
  id: string;
  dir: string;
  goal: string;
  startedAt?: string;
  endedAt?: string;
  outcome?: string;
  steps: number;
  source?: string;
  truncated: boolean;
}

/** Every task folder under the audit root, newest first. Unreadable folders are left out. */
export async function listTasks(root: string): Promise<TaskSummary[]> {
  let names: string[];
  try {
    names = await fs.readdir(root);
  } catch {
    return [];
  }
  const out: TaskSummary[] = [];
  for (const name of names) {
    try {
      const t = await loadTask(join(root, name));
      out.push({
        id: t.start?.taskId ?? name,
        dir: t.dir,
        goal: t.start?.goal ?? '(unknown goal)',
        startedAt: t.start?.ts,
        endedAt: t.end?.ts,
        outcome: t.end?.outcome,
        steps: t.steps.length,
        source: t.start?.source,
        truncated: t.truncated,
      });
    } catch {
      /* not a task folder */
    }
  }
  return out.sort((a, b) => (b.startedAt ?? b.id).localeCompare(a.startedAt ?? a.id));
}
