import type { ContentPart } from '../contract/types';
import type { AgentMessage, ToolResultPart } from './types';

export interface ContextLimits {
  /** Longest tool output kept for a snapshot, in characters. */
  maxSnapshotChars: number;
  /** Longest kept for any other tool output. */
  maxOutputChars: number;
  /** Screenshots kept in full (the newest ones). */
  keepImages: number;
}

export const DEFAULT_LIMITS: ContextLimits = { maxSnapshotChars: 60_000, maxOutputChars: 8_000, keepImages: 2 };

/** Rough but stable: ~4 characters per token for text, a flat cost per image. */
export const IMAGE_TOKENS = 1_500;
export function estimateTokens(messages: AgentMessage[], system = ''): number {
  let chars = system.length;
  let images = 0;
  const add = (p: ContentPart) => (p.type === 'text' ? (chars += p.text.length) : images++);
  for (const m of messages) {
    if (m.role === 'assistant') chars += m.text.length + m.toolCalls.reduce((n, c) => n + c.name.length + JSON.stringify(c.input ?? {}).length, 0);
    else for (const p of m.content) p.type === 'tool_result' ? p.content.forEach(add) : add(p);
  }
  return Math.ceil(chars / 4) + images * IMAGE_TOKENS;
}

export function trimText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[… ${text.length - max} more characters trimmed. Ask for a narrower part (a ref, a selector, a page region) if you need it.]`;
}

/**
 * The transcript the model sees, kept small: only the newest full snapshot and the newest
 * screenshots survive; older observations become one-line placeholders, long outputs are trimmed.
 * Placeholders are written in place, so earlier turns stay byte-identical afterwards (prompt caches keep working).
 */
export class AgentContext {
  readonly messages: AgentMessage[] = [];

  constructor(
    private readonly isSnapshot: (toolName: string) => boolean,
    private readonly limits: ContextLimits = DEFAULT_LIMITS,
  ) {}

  push(m: AgentMessage): void {
    if (m.role === 'user') for (const p of m.content) if (p.type === 'tool_result') this.trim(p);
    const last = this.messages.at(-1);
    // A follow-up's first words after the earlier turn's last results: one user turn, as every provider expects.
    if (m.role === 'user' && last?.role === 'user') this.messages[this.messages.length - 1] = { role: 'user', content: [...last.content, ...m.content] };
    else this.messages.push(m);
    this.compact();
  }

  private trim(p: ToolResultPart): void {
    const max = this.isSnapshot(p.name) ? this.limits.maxSnapshotChars : this.limits.maxOutputChars;
    p.content = p.content.map((c) => (c.type === 'text' ? { type: 'text', text: trimText(c.text, max) } : c));
  }

  private results(): ToolResultPart[] {
    return this.messages.flatMap((m) => (m.role === 'user' ? m.content.filter((p): p is ToolResultPart => p.type === 'tool_result') : []));
  }

  compact(): void {
    const results = this.results();
    const snapshots = results.filter((r) => this.isSnapshot(r.name) && !r.isError && !isPlaceholder(r));
    for (const old of snapshots.slice(0, -1)) {
      old.content = [{ type: 'text', text: `[Snapshot from step ${old.step ?? '?'} omitted: superseded by a newer snapshot. Its refs may be stale.]` }];
    }
    let seen = 0;
    for (let i = results.length - 1; i >= 0; i--) {
      const r = results[i];
      r.content = r.content.map((c) => {
        if (c.type !== 'image') return c;
        return ++seen <= this.limits.keepImages ? c : { type: 'text', text: `[Screenshot from step ${r.step ?? '?'} omitted: only the latest ${this.limits.keepImages} are kept.]` };
      });
    }
  }

  tokens(system = ''): number {
    return estimateTokens(this.messages, system);
  }
}

function isPlaceholder(r: ToolResultPart): boolean {
  return r.content.length === 1 && r.content[0].type === 'text' && r.content[0].text.startsWith('[Snapshot from step');
}
