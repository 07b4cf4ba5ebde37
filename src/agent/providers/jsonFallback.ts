import { z } from 'zod';
import type { AgentMessage, ChatProvider, ModelReply, ModelRequest, ToolCall, ToolSpec } from '../types';

const CallSchema = z.object({
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
});

export function jsonToolInstructions(tools: ToolSpec[]): string {
  const list = tools.map((t) => `### ${t.name}\n${t.description}\nArguments (JSON schema): ${JSON.stringify(t.inputSchema)}`).join('\n\n');
  return [
    '# Calling tools',
    'You cannot call functions directly. To use a tool, end your reply with exactly one fenced block:',
    '```json\n{"tool": "<tool name>", "args": { ... }}\n```',
    'One tool per reply. You will get its result in the next message. Available tools:',
    '',
    list,
  ].join('\n');
}

/** Text of a tool result as the next user message in JSON mode. */
function flatten(messages: AgentMessage[]): AgentMessage[] {
  return messages.map((m) => {
    if (m.role === 'assistant') return { role: 'assistant', text: m.text, toolCalls: [] };
    return {
      role: 'user',
      content: m.content.flatMap((p) =>
        p.type === 'tool_result'
          ? [{ type: 'text' as const, text: `Result of ${p.name}${p.isError ? ' (error)' : ''}:` }, ...p.content]
          : [p],
      ),
    };
  });
}

export type ParseResult = { ok: true; call: { tool: string; args: Record<string, unknown> } } | { ok: false; reason: string };

/** The last ```json block of a reply (or the whole reply when it is bare JSON), validated. */
export function parseToolCall(text: string, known: Set<string>): ParseResult {
  // An unclosed fence (a cut-off reply) still counts as the block, so the model hears what was wrong with it.
  const blocks = [...text.matchAll(/```(?:json)?\s*\n?([\s\S]*?)(?:```|$)/g)].map((m) => m[1]);
  const candidate = blocks.at(-1) ?? (text.trim().startsWith('{') ? text.trim() : undefined);
  if (candidate === undefined) return { ok: false, reason: 'no ```json block found' };
  let raw: unknown;
  try {
    raw = JSON.parse(candidate);
  } catch (e) {
    return { ok: false, reason: `the json block is not valid JSON (${(e as Error).message})` };
  }
  const parsed = CallSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: `the json block must look like {"tool": "name", "args": {...}}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'value'}: ${i.message}`).join('; ')}` };
  if (!known.has(parsed.data.tool)) return { ok: false, reason: `unknown tool "${parsed.data.tool}"; use one of ${[...known].join(', ')}` };
  return { ok: true, call: parsed.data };
}

let counter = 0;

/**
 * For models without function calling: the tool list goes into the system prompt and the reply's
 * ```json block becomes the tool call. A reply that cannot be used gets one corrective retry.
 */
export function jsonFallback(inner: ChatProvider): ChatProvider {
  return {
    id: inner.id,
    label: `${inner.label} (JSON tools)`,
    capabilities: { ...inner.capabilities, tools: false },
    async send(req: ModelRequest): Promise<ModelReply> {
      const known = new Set(req.tools.map((t) => t.name));
      const system = `${req.system}\n\n${jsonToolInstructions(req.tools)}`;
      let messages = flatten(req.messages);
      let usage: ModelReply['usage'];
      for (let attempt = 0; attempt < 2; attempt++) {
        const reply = await inner.send({ system, messages, tools: [], signal: req.signal, onText: req.onText });
        usage = reply.usage && { inputTokens: (usage?.inputTokens ?? 0) + reply.usage.inputTokens, outputTokens: (usage?.outputTokens ?? 0) + reply.usage.outputTokens };
        const r = parseToolCall(reply.text, known);
        if (r.ok) {
          const call: ToolCall = { id: `json_${++counter}`, name: r.call.tool, input: r.call.args };
          return { text: reply.text, toolCalls: [call], usage };
        }
        if (attempt === 1) return { text: reply.text, toolCalls: [], usage };
        messages = [
          ...messages,
          { role: 'assistant', text: reply.text, toolCalls: [] },
          { role: 'user', content: [{ type: 'text', text: `Your reply could not be used: ${r.reason}. Reply again and end with exactly one \`\`\`json block: {"tool": "<name>", "args": {...}}.` }] },
        ];
      }
      throw new Error('unreachable');
    },
  };
}
