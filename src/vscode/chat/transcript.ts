import { unfence, unfenceDeep } from '../../base/unfence';
import { fixActionsForCode } from '../failureText';
import { firstLine } from '../runToolText';
import type { AgentEvent } from '../../agent/events';
import type { Card, Entry, TaskRecord, ToWebviewMessage } from './messages';

/** `CODE: message` and `Hint: …` lines of a tool's error text, for a card a person reads. */
export function splitError(text: string | undefined, code?: string): { message?: string; hint?: string } {
  if (!text) return {};
  const lines = text.split('\n');
  const hintLine = lines.find((l) => /^Hint:\s/.test(l));
  const first = lines.find((l) => l.trim() && l !== hintLine) ?? '';
  const coded = code && first.startsWith(`${code}: `) ? first.slice(code.length + 2) : first;
  // `Ref 3 (button "Save") is no longer…` → `button "Save" is no longer…`: a person knows the element, not its ref.
  const message = coded.replace(/^Ref \S+ \(([^)]+)\)/, '$1');
  return { message: message.trim() || undefined, hint: hintLine?.replace(/^Hint:\s*/, '').trim() || undefined };
}

function fixesFor(code: string | undefined): Card['fixes'] {
  const labels = fixActionsForCode(code).map((a) => a.label);
  return labels.length ? labels : undefined;
}

function decisionLabel(outcome?: string): string | undefined {
  switch (outcome) {
    case 'allowed': return 'Allowed by you';
    case 'refused': return 'Declined by you';
    case 'blocked': return 'Blocked by policy';
    case 'notified': return 'Notified';
    default: return undefined;
  }
}

/**
 * Turns a run's AgentEvents into the visible transcript (user text, streamed assistant text, one
 * card per tool step, the result) and into the messages the webview needs to show it live.
 */
export class TaskTranscript {
  readonly record: TaskRecord;
  private streaming?: { kind: 'assistant'; text: string };

  constructor(id: string, task: string, provider: string, now = Date.now()) {
    this.record = { id, task, startedAt: now, provider, status: 'running', entries: [{ kind: 'user', text: task }] };
  }

  private cards = new Map<string, Card>();

  /** Applies one event; returns what to post to the webview. */
  apply(e: AgentEvent): ToWebviewMessage[] {
    const id = this.record.id;
    switch (e.type) {
      case 'text': {
        if (!this.streaming) {
          this.streaming = { kind: 'assistant', text: '' };
          this.record.entries.push(this.streaming);
        }
        this.streaming.text += e.delta;
        return [{ type: 'delta', taskId: id, text: e.delta }];
      }
      case 'turn':
        this.streaming = undefined;
        return [];
      case 'status':
        return [{ type: 'status', text: e.text }];
      case 'tokens':
        this.record.tokens = e.estimate;
        return [{ type: 'tokens', taskId: id, estimate: e.estimate, inputTokens: e.inputTokens }];
      case 'step-start': {
        this.streaming = undefined;
        const card: Card = { id: e.id, tool: e.tool, target: unfence(e.target), input: unfenceDeep(e.input), state: 'running' };
        this.cards.set(e.id, card);
        this.record.entries.push({ kind: 'card', card });
        return [{ type: 'card', taskId: id, card }];
      }
      case 'step-end': {
        const card = this.cards.get(e.id) ?? { id: e.id, tool: e.tool, input: e.input, state: 'running' as const };
        Object.assign(card, {
          state: e.ok ? 'ok' : 'error',
          target: unfence(e.target) ?? card.target,
          input: unfenceDeep(e.input),
          // Fences are for the model: a person reads the page's text without them.
          // A successful tool's line is its result's first line, with the value a heading line announces (the
          // agent's own steps, finish among them, keep the model's words).
          summary: e.ok && e.output && e.tool.startsWith('browser_') ? firstLine(unfence(e.output)!).slice(0, 200) : unfence(e.summary),
          output: unfence(e.output),
          code: e.code,
          durationMs: e.durationMs,
          thumbnail: e.image ? `data:${e.image.mimeType};base64,${e.image.data}` : undefined,
          decision: decisionLabel(e.decision?.outcome),
          reason: e.decision?.rating.reason,
          ...(e.ok ? { message: undefined, hint: undefined, fixes: undefined } : { ...splitError(unfence(e.output || e.summary), e.code), fixes: fixesFor(e.code) }),
        } satisfies Partial<Card>);
        if (!this.cards.has(e.id)) this.record.entries.push({ kind: 'card', card });
        this.cards.set(e.id, card);
        return [{ type: 'card', taskId: id, card }];
      }
      case 'done': {
        this.streaming = undefined;
        this.record.status = e.outcome.status;
        this.record.endedAt = Date.now();
        this.record.tokens = e.outcome.tokens;
        const entry: Entry = { kind: 'result', status: e.outcome.status, summary: unfence(e.outcome.summary), data: e.outcome.data, ...(e.outcome.reason ? { reason: e.outcome.reason } : {}) };
        this.record.entries.push(entry);
        return [{ type: 'entry', taskId: id, entry }];
      }
    }
  }

  /** For globalState: screenshots stay out (they are large and only useful live). */
  persistable(): TaskRecord {
    return {
      ...this.record,
      entries: this.record.entries.map((en) => (en.kind === 'card' ? { kind: 'card', card: { ...en.card, thumbnail: undefined, output: en.card.output?.slice(0, 4000) } } : en)),
    };
  }
}
