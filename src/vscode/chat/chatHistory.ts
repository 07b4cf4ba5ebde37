import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { Card, Entry, HistoryItem, TaskRecord } from './messages';
import { TaskRecordSchema } from './messages';
import type { AgentMessage } from '../../agent/types';
import { decisionWords, failureReason, shortTime, taskDescription } from '../../audit/present';
import { listTasks, loadTask, LOG_FILE, type TaskSummary } from '../../audit/reader';
import { AUDIT_FORMAT, type StepRecord } from '../../audit/types';
import { AUDIT_OUTCOME } from '../../audit/words';
import { ignore } from '../../base/ignore';

/**
 * One history: the audit log's task folders. The chat panel lists them (the same store as the Task
 * History view) and keeps its visible conversation next to the log as chat.json, so a chat task
 * opens again as it was seen; tasks from Copilot, MCP or a replay open from their steps.
 *
 * A chat thread is several tasks (one per run: each is audited and replayed on its own): the later
 * ones name the first in their start line (`thread`). The panel lists threads, opens them whole, and
 * continues one from the model's side of it, kept next to its newest task as conversation.json.
 */
export const CHAT_FILE = 'chat.json';
export const CONVERSATION_FILE = 'conversation.json';

/** A thread as the panel opens it: its turns, oldest first, and what the model knows of it (absent: it cannot be continued). */
export interface ThreadRecord {
  id: string;
  turns: TaskRecord[];
  conversation?: AgentMessage[];
}

async function writePrivate(dir: string, file: string, value: unknown): Promise<void> {
  // Like the audit log beside it: only the user may read a conversation (0700 folder, 0600 file).
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await fs.writeFile(join(dir, file), JSON.stringify(value), { mode: 0o600 });
}

export async function saveTranscript(dir: string, record: TaskRecord): Promise<void> {
  await writePrivate(dir, CHAT_FILE, record);
}

/** The model's side of the thread after this task (compacted by the agent), so a follow-up after a restart has it. */
export async function saveConversation(dir: string, conversation: readonly AgentMessage[]): Promise<void> {
  await writePrivate(dir, CONVERSATION_FILE, conversation);
}

const threadOf = (t: TaskSummary) => t.thread ?? t.id;
const timeOf = (t: TaskSummary) => Date.parse(t.endedAt ?? t.startedAt ?? '') || Date.parse(t.startedAt ?? '') || 0;

/** One row per thread, newest activity first: its first task's words, its newest task's outcome and time. */
export async function listHistory(root: string, max = 200): Promise<HistoryItem[]> {
  const threads = new Map<string, TaskSummary[]>();
  for (const t of await listTasks(root)) threads.set(threadOf(t), [...(threads.get(threadOf(t)) ?? []), t]);
  const rows = [...threads].map(([id, tasks]) => {
    const newest = tasks[0]; // listTasks: newest first
    const first = tasks.find((t) => t.id === id) ?? tasks.at(-1)!;
    return {
      id,
      task: first.goal,
      status: newest.truncated ? 'interrupted' : (newest.status ?? newest.outcome ?? 'running'),
      label: taskDescription(newest),
      source: first.source,
      startedAt: Date.parse(first.startedAt ?? '') || 0,
      when: shortTime(new Date(timeOf(newest) || Date.now()).toISOString()),
      turns: tasks.length,
      at: timeOf(newest),
    };
  });
  return rows.sort((a, b) => b.at - a.at).slice(0, max).map(({ at: _at, ...row }) => row);
}

/** The shape the agent's messages have (a file edited or cut short is not sent to a model). */
function isConversation(v: unknown): v is AgentMessage[] {
  return Array.isArray(v) && v.every((m) => (m?.role === 'user' && Array.isArray(m.content)) || (m?.role === 'assistant' && typeof m.text === 'string' && Array.isArray(m.toolCalls)));
}

/** A thread whole: every task of it as the panel shows it, and the newest saved conversation. */
export async function openThread(root: string, id: string): Promise<ThreadRecord | undefined> {
  const tasks = (await listTasks(root)).filter((t) => threadOf(t) === id).reverse();
  const turns = (await Promise.all(tasks.map((t) => openHistory(root, t.id)))).filter((r): r is TaskRecord => !!r);
  if (!turns.length) return undefined;
  let conversation: AgentMessage[] | undefined;
  for (const t of [...tasks].reverse()) {
    try {
      const parsed: unknown = JSON.parse(await fs.readFile(join(t.dir, CONVERSATION_FILE), 'utf8'));
      if (isConversation(parsed)) conversation = parsed;
      break;
    } catch (e) {
      ignore(e, 'this task kept none (a run the model never answered): an earlier one may have');
    }
  }
  return { id, turns, conversation };
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
  } catch (e) {
    ignore(e, 'no saved conversation: rebuild from the log');
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
    } catch (e) {
      ignore(e, 'not imported yet');
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
