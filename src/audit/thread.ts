import { basename } from 'node:path';
import { listTasks, loadTask, type LoadedTask } from './reader';

/**
 * A chat thread is several recorded tasks (one per message). Replay and export act on the thread
 * whole: its turns' steps one after another, as they ran, so a follow-up that went on from the page
 * the first turn left replays from there too.
 */

/** The folders of a thread's tasks, oldest first (the thread's id is its first task's id). */
export async function threadDirs(root: string, id: string): Promise<string[]> {
  return (await listTasks(root)).filter((t) => (t.thread ?? t.id) === id).reverse().map((t) => t.dir);
}

/** Where a joined step came from: its turn (1, 2, …) and its number in that turn's own log. */
export interface StepOrigin {
  turn: number;
  step: number;
}

export interface JoinedTask extends LoadedTask {
  /** The turns joined, oldest first (one for a task that is no thread). */
  turns: LoadedTask[];
  /** By joined step number. */
  origin: Map<number, StepOrigin>;
}

/** The folder a turn's files go in when a thread is exported (a single task keeps its files at the top). */
export const turnFolder = (turn: number, of: number) => (of > 1 ? `turn-${turn}` : '');

/**
 * One task of a thread's turns, as replay and export read it: the first turn's start (its goal, its id), the
 * newest turn's end, the steps numbered 1…N across the turns in order. Screenshot names point into each turn's
 * folder of an export.
 */
export function joinTasks(turns: LoadedTask[]): JoinedTask {
  if (!turns.length) throw new Error('A thread has at least one task.');
  const origin = new Map<number, StepOrigin>();
  const steps = turns.flatMap((t, i) =>
    [...t.steps].sort((a, b) => a.step - b.step).map((s) => {
      const step = origin.size + 1;
      origin.set(step, { turn: i + 1, step: s.step });
      const folder = turnFolder(i + 1, turns.length);
      const shot = (f?: string) => (f && folder ? `${folder}/${f}` : f);
      return { ...s, step, ...(s.screenshots ? { screenshots: { before: shot(s.screenshots.before), after: shot(s.screenshots.after) } } : {}) };
    }),
  );
  const first = turns[0];
  const last = turns[turns.length - 1];
  return {
    dir: first.dir,
    id: first.id,
    start: first.start,
    steps,
    end: last.end && { ...last.end, steps: steps.length },
    warnings: turns.flatMap((t, i) => t.warnings.map((w) => (turns.length > 1 ? `Turn ${i + 1} (${basename(t.dir)}): ${w}` : w))),
    truncated: turns.some((t) => t.truncated),
    turns,
    origin,
  };
}

/** Reads a thread's task folders (oldest first) as one task. */
export async function loadThread(dirs: readonly string[]): Promise<JoinedTask> {
  return joinTasks(await Promise.all(dirs.map((d) => loadTask(d))));
}
