import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { Card, Entry, HistoryItem, TaskRecord } from './messages';
import { TaskRecordSchema } from './messages';
import { decisionWords, failureReason, taskDescription } from '../../audit/present';
import { listTasks, loadTask, LOG_FILE } from '../../audit/reader';
import { AUDIT_FORMAT, type StepRecord } from '../../audit/types';
import { AUDIT_OUTCOME } from '../../audit/words';

/**
 * One history: the audit log's task folders. The chat panel lists them (the same list as the Task
 * History view) and keeps its visible conversation next to the log as chat.json, so a chat task
 * opens again as it was seen; tasks from Copilot, MCP or a replay open from their steps.
 */
export const CHAT_FILE = 'chat.json';

export async function saveTranscript(dir: string, record: TaskRecord): Promise<void> {
  // Like the audit log beside it: only the user may read a conversation (0700 folder, 0600 file).
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await fs.writeFile(join(dir, CHAT_FILE), JSON.stringify(record), { mode: 0o600 });
}

export async function listHistory(root: string, max = 200): Promise<HistoryItem[]> {
  const tasks = (await listTasks(root)).slice(0, max);
  return tasks.map((t) => ({
    id: t.id,
    task: t.goal,
    status: t.truncated ? 'interrupted' : (t.status ?? t.outcome ?? 'running'),
    label: taskDescription(t),
    source: t.source,
    startedAt: Date.parse(t.startedAt ?? '') || 0,
  }));
}

function stepCard(s: StepRecord): Card {
  const decided = decisionWords(s);
  return {
    id: `step-${s.step}`,
    tool: s.tool,
    target: s.target?.name || s.target?.role,
    input: s.input,
    state: s.ok ? 'ok' : 'error',
    summary: s.ok ? s.result?.split('\n')[0]?.slice(0, 200) : undefined,
    output: s.result,
    code: s.errorCode,
    durationMs: s.durationMs,
    decision: decided && s.decision !== 'auto' ? decided.charAt(0).toUpperCase() + decided.slice(1) : undefined,
    reason: s.reason,
    message: failureReason(s),
  };
}

/** A task as the chat panel shows it: its saved conversation, else rebuilt from its steps. */
export async function openHistory(root: string, id: string): Promise<TaskRecord | undefined> {
  const dir = join(root, id);
  try {
    const parsed = TaskRecordSchema.safeParse(JSON.parse(await fs.readFile(join(dir, CHAT_FILE), 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    /* no saved conversation: rebuild from the log */
  }
  let t;
  try {
    t = await loadTask(dir);
  } catch {
    return undefined;
  }
  const status = t.end ? (t.end.status ?? t.end.outcome) : t.truncated ? 'interrupted' : 'running';
  const entries: Entry[] = [{ kind: 'user', text: t.start?.goal ?? id }, ...t.steps.map((s): Entry => ({ kind: 'card', card: stepCard(s) }))];
  if (t.end) entries.push({ kind: 'result', status, summary: t.end.summary ?? '' });
  return { id, task: t.start?.goal ?? id, startedAt: Date.parse(t.start?.ts ?? '') || 0, endedAt: t.end ? Date.parse(t.end.ts) : undefined, provider: t.start?.provider ?? t.start?.source ?? '', status, entries };
}

/** Deletes every task folder except those still being written; returns how many were deleted. */
export async function clearHistory(root: string, keep: ReadonlySet<string> = new Set()): Promise<number> {
  let n = 0;
  for (const t of await listTasks(root)) {
    if (keep.has(t.id) || (!t.outcome && !t.truncated)) continue; // running tasks stay
    await fs.rm(t.dir, { recursive: true, force: true });
    n++;
  }
  return n;
}

/**
 * Moves the chat's earlier, separate history (kept in VS Code's globalState) into the one store,
 * once: each conversation becomes a task folder with its start and end lines and its chat.json.
 * The old records are left where they were (never deleted without asking).
 */
export async function importLegacyChats(root: string, records: readonly TaskRecord[]): Promise<number> {
  let n = 0;
  for (const r of records) {
    const ts = new Date(r.startedAt || Date.now());
    const id = `${ts.toISOString().replace(/[:.]/g, '-')}-chat${r.id.replace(/[^a-z0-9]/gi, '').slice(0, 6)}`;
    const dir = join(root, id);
    try {
      await fs.access(join(dir, LOG_FILE));
      continue;
    } catch {
      /* not imported yet */
    }
    const status = r.status === 'running' ? 'interrupted' : r.status;
    const outcome = (AUDIT_OUTCOME as Record<string, string>)[status] ?? (status === 'interrupted' ? 'interrupted' : 'failure');
    const steps = r.entries.filter((e) => e.kind === 'card').length;
    const summary = [...r.entries].reverse().find((e): e is Extract<Entry, { kind: 'result' }> => e.kind === 'result')?.summary;
    const lines = [
      { type: 'task_start', v: AUDIT_FORMAT, taskId: id, ts: ts.toISOString(), goal: r.task, source: 'chat', provider: r.provider },
      { type: 'task_end', ts: new Date(r.endedAt ?? r.startedAt).toISOString(), outcome, summary, steps, ...(status !== outcome ? { status } : {}) },
    ];
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    await fs.writeFile(join(dir, LOG_FILE), lines.map((l) => JSON.stringify(l)).join('\n') + '\n', { mode: 0o600 });
    await saveTranscript(dir, { ...r, id, status });
    n++;
  }
  return n;
}
