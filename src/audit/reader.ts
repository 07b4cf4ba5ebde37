import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { StepRecord, TaskEndEvent, TaskStartEvent } from './types';
import { ignore } from '../base/ignore';

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
  /** The finer status of a chat task, when recorded; else undefined (use outcome). */
  status?: string;
  summary?: string;
  steps: number;
  source?: string;
  /** The chat thread a follow-up belongs to (its first task's id); absent for a thread's first task and for other tasks. */
  thread?: string;
  truncated: boolean;
}

const PEEK = 64 * 1024;

/**
 * A task's summary from the first and last lines only (a finished task's end event carries its
 * step count), so the history view stays fast with many long logs. Unfinished or odd logs are
 * read in full.
 */
export async function summarizeTask(dir: string): Promise<TaskSummary> {
  const path = join(dir, LOG_FILE);
  const fh = await fs.open(path, 'r');
  let head = '';
  let tail = '';
  let size = 0;
  try {
    size = (await fh.stat()).size;
    if (size > 2 * PEEK) {
      const a = Buffer.alloc(PEEK);
      const b = Buffer.alloc(PEEK);
      await fh.read(a, 0, PEEK, 0);
      await fh.read(b, 0, PEEK, size - PEEK);
      head = a.toString('utf8');
      tail = b.toString('utf8');
    }
  } finally {
    await fh.close();
  }
  const id = dir.split(/[\\/]/).pop() ?? '';
  if (head && tail.endsWith('\n')) {
    try {
      const start = JSON.parse(head.slice(0, head.indexOf('\n'))) as TaskStartEvent;
      const lines = tail.trimEnd().split('\n');
      const end = JSON.parse(lines[lines.length - 1]) as TaskEndEvent;
      if (start.type === 'task_start' && end.type === 'task_end') {
        return {
          id: start.taskId ?? id, dir, goal: start.goal, startedAt: start.ts, endedAt: end.ts, outcome: end.outcome, status: end.status,
          summary: end.summary, steps: end.steps, source: start.source, thread: start.thread, truncated: false,
        };
      }
    } catch (e) {
      ignore(e, 'fall through to a full read');
    }
  }
  const t = parseLog(await fs.readFile(path, 'utf8'), dir, id);
  return {
    id: t.start?.taskId ?? id,
    dir,
    goal: t.start?.goal ?? '(unknown goal)',
    startedAt: t.start?.ts,
    endedAt: t.end?.ts,
    outcome: t.end?.outcome,
    status: t.end?.status,
    summary: t.end?.summary,
    steps: t.end?.steps ?? t.steps.length,
    source: t.start?.source,
    thread: t.start?.thread,
    truncated: t.truncated,
  };
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
      out.push(await summarizeTask(join(root, name)));
    } catch (e) {
      ignore(e, 'not a task folder');
    }
  }
  return out.sort((a, b) => (b.startedAt ?? b.id).localeCompare(a.startedAt ?? a.id));
}
