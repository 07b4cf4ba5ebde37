import type { Decider } from '../safety/decider';
import { confirmationText } from '../safety/messages';
import type { SecretVault } from '../safety/secrets';
import type { Rating } from '../contract/decision';
import type { ActionPreview, ToolContext, ToolDefinition, ToolResult } from '../contract/types';

/**
 * The editor-independent half of the Copilot tools (kept free of `vscode` so it is unit-tested):
 * what prepareInvocation shows, what invoke remembers from it, and sizing to a token budget.
 */

export interface Prepared {
  invocationMessage: string;
  confirmation?: { title: string; lines: string[] };
  rating: Rating;
}

/** Same tool + same input within a few minutes = the call prepareInvocation asked about. */
export class PendingConfirmations {
  private readonly entries = new Map<string, { rating: Rating; at: number }>();
  constructor(private readonly ttlMs = 10 * 60_000) {}

  private key(tool: string, input: unknown): string {
    return `${tool}\u0000${stableJson(input)}`;
  }

  put(tool: string, input: unknown, rating: Rating): void {
    const now = Date.now();
    for (const [k, v] of this.entries) if (now - v.at > this.ttlMs) this.entries.delete(k);
    this.entries.set(this.key(tool, input), { rating, at: now });
  }

  take(tool: string, input: unknown): Rating | undefined {
    const k = this.key(tool, input);
    const e = this.entries.get(k);
    this.entries.delete(k);
    return e && Date.now() - e.at <= this.ttlMs ? e.rating : undefined;
  }
}

export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** prepareInvocation's work: preview (side-effect free) + rating, never throws. */
export async function prepareCall(tool: ToolDefinition, input: unknown, decider: Decider, vault: SecretVault, peek: ToolContext): Promise<Prepared> {
  const parsed = tool.schema.safeParse(input ?? {});
  if (!parsed.success) return { invocationMessage: `${tool.title} (invalid arguments)`, rating: { level: 'auto' } };
  let preview: ActionPreview | undefined;
  try {
    preview = tool.preview ? vault.redactDeep(await tool.preview(parsed.data, peek)) : undefined;
  } catch {
    preview = undefined; // no browser yet, page gone…: the runner rates again at execution
  }
  let rating: Rating;
  try {
    rating = await decider.rate(tool, parsed.data, preview, peek);
  } catch {
    rating = { level: 'auto' };
  }
  const invocationMessage = vault.redact(preview?.message ?? `${tool.title}`);
  if (rating.level !== 'confirm' || decider.allowances.has(originKey(preview), rating.rule)) return { invocationMessage, rating };
  const text = confirmationText({ tool: tool.name, toolTitle: tool.title, rating, preview, origin: originKey(preview), pageTitle: preview?.title });
  return { invocationMessage, rating, confirmation: text };
}

/**
 * The body of Copilot's confirmation, as a plain string: outside a chat session VS Code shows it in a
 * native dialog as plain text, so a MarkdownString's escapes (`browser\_evaluate`, `=\> \{`) would be
 * shown literally. One line per paragraph so it reads the same rendered as markdown in the chat view.
 */
export function confirmationBody(lines: readonly string[]): string {
  return lines.join('\n\n');
}

function originKey(preview: ActionPreview | undefined): string | undefined {
  const url = preview?.url;
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return /^(https?|wss?):$/.test(u.protocol) ? u.origin : url;
  } catch {
    return url;
  }
}

/** Roughly 4 characters per token: used to size inputs and cut outputs to a budget. */
const CHARS_PER_TOKEN = 4;

/** Passes the budget to tools that size their own output (a `maxTokens` argument). */
export function sizeInput(tool: ToolDefinition, input: unknown, tokenBudget: number | undefined): unknown {
  if (!tokenBudget || !input || typeof input !== 'object' || !('maxTokens' in tool.schema.shape)) return input;
  const rec = input as Record<string, unknown>;
  const cap = Math.max(200, Math.floor(tokenBudget * 0.9));
  const asked = typeof rec.maxTokens === 'number' ? rec.maxTokens : cap;
  return { ...rec, maxTokens: Math.min(asked, cap) };
}

/** Text beyond the budget is cut with a note saying how to get the rest. */
export function fitToBudget(result: ToolResult, tokenBudget: number | undefined): ToolResult {
  if (!tokenBudget) return result;
  let left = tokenBudget * CHARS_PER_TOKEN;
  const content = result.content.map((p) => {
    if (p.type !== 'text') return p;
    if (p.text.length <= left) {
      left -= p.text.length;
      return p;
    }
    const cut = { ...p, text: `${p.text.slice(0, Math.max(0, left))}\n[… cut to fit the token budget; narrow the request (scope, ref, find) to see more]` };
    left = 0;
    return cut;
  });
  return { ...result, content };
}
