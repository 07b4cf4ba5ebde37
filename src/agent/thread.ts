import type { ContentPart } from '../contract/types';
import { trimText } from './context';
import type { AgentMessage, ToolResultPart, UserPart } from './types';

/**
 * A chat thread: one conversation across runs. Each follow-up run starts from the model's side of
 * the earlier turns (the user's messages, its own answers, tool calls and results), compacted.
 */

/** Longest output of an earlier turn's tool kept when the thread goes on (the newest snapshot of a run is kept whole). */
export const CARRIED_OUTPUT_CHARS = 2_000;

/** What the model reads first in a follow-up, before the page it is on now. */
export function followUpText(task: string): string {
  return `Follow-up from the user (the earlier turns of this conversation are above; the page may have changed since): ${task}`;
}

/**
 * The earlier turns, ready to be sent again: copied (the caller's thread is never changed), a call
 * that never got its result (a stopped run) answered so every provider accepts the transcript,
 * screenshots replaced by a line and long outputs trimmed.
 */
export function carryOver(earlier: readonly AgentMessage[], maxOutputChars = CARRIED_OUTPUT_CHARS, isSnapshot: (tool: string) => boolean = (n) => /snapshot/i.test(n)): AgentMessage[] {
  const carry = (c: ContentPart, maxChars: number): ContentPart =>
    c.type === 'image' ? { type: 'text', text: '[Screenshot from an earlier turn omitted.]' } : { type: 'text', text: trimText(c.text, maxChars) };
  const out: AgentMessage[] = [];
  /** Results owed by the assistant message just copied: the run ended (stopped, an error) between its calls and their results. */
  let owed: ToolResultPart[] = [];
  for (const m of earlier) {
    if (m.role === 'assistant') {
      if (owed.length) out.push({ role: 'user', content: owed });
      out.push({ role: 'assistant', text: m.text, toolCalls: m.toolCalls.map((c) => ({ ...c })) });
      owed = m.toolCalls.map((c) => notRun(c.id, c.name));
      continue;
    }
    const content: UserPart[] = m.content.map((p) =>
      p.type === 'tool_result'
        ? { ...p, content: p.content.map((c) => carry(c, isSnapshot(p.name) ? Number.MAX_SAFE_INTEGER : maxOutputChars)) }
        : carry(p, Number.MAX_SAFE_INTEGER),
    );
    const answered = new Set(content.flatMap((p) => (p.type === 'tool_result' ? [p.callId] : [])));
    out.push({ role: 'user', content: [...owed.filter((r) => !answered.has(r.callId)), ...content] });
    owed = [];
  }
  if (owed.length) out.push({ role: 'user', content: owed });
  return out;
}

function notRun(callId: string, name: string): ToolResultPart {
  return { type: 'tool_result', callId, name, content: [{ type: 'text', text: 'Not run: the run ended before this call ran.' }], isError: true };
}
