import type { AgentMessage } from '../../agent/types';
import { shortTime } from '../../audit/present';
import type { ThreadRecord } from './chatHistory';
import type { TaskRecord } from './messages';

/**
 * The conversation in the chat panel: every run of it (a turn) as the person saw it, and the model's
 * side of it, which the next message continues. New Task starts another; the history reopens one.
 */
export class ChatThread {
  constructor(
    /** The id of its first task (what later tasks name as their thread in the audit log). */
    readonly id: string,
    readonly turns: TaskRecord[] = [],
    /** What the model knows of the thread: its earlier turns, compacted by the agent. */
    public conversation: AgentMessage[] = [],
  ) {}

  /** A thread from the history, ready to go on; undefined when it cannot (no saved conversation: not a chat thread). */
  static resume(r: ThreadRecord): ChatThread | undefined {
    return r.conversation ? new ChatThread(r.id, [...r.turns], r.conversation) : undefined;
  }

  add(turn: TaskRecord): void {
    turn.threadId = this.id;
    this.turns.push(turn);
  }

  get current(): TaskRecord | undefined {
    return this.turns.at(-1);
  }

  /** The turns above the current one. */
  get earlier(): TaskRecord[] {
    return this.turns.slice(0, -1);
  }
}

/** The line above a thread opened from the history. */
export function resumedNotice(r: ThreadRecord): string {
  const last = r.turns.at(-1);
  const when = shortTime(new Date(last?.endedAt ?? last?.startedAt ?? Date.now()).toISOString());
  return `A conversation from ${when}. Type a message to continue it, or start a New Task.`;
}
