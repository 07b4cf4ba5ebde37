import OpenAI from 'openai';
import type { ContentPart } from '../../contract/types';
import type { AgentMessage, ChatProvider, ModelReply, ModelRequest, ToolCall } from '../types';

export interface OpenAIOptions {
  apiKey: string;
  model: string;
  baseURL?: string;
  stream?: boolean;
  vision: boolean;
  /** Label prefix, e.g. "Ollama" when the base URL says so. */
  name?: string;
}

type Msg = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type UserContent = OpenAI.Chat.Completions.ChatCompletionContentPart;

function part(p: ContentPart): UserContent {
  return p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image_url', image_url: { url: `data:${p.mimeType};base64,${p.data}` } };
}

/**
 * Chat Completions has no images in tool messages: a tool's text goes in the tool message and
 * its images follow in one user message after the tool messages of that turn.
 */
export function toOpenAIMessages(system: string, messages: AgentMessage[]): Msg[] {
  const out: Msg[] = [{ role: 'system', content: system }];
  for (const m of messages) {
    if (m.role === 'assistant') {
      out.push({
        role: 'assistant',
        content: m.text || null,
        ...(m.toolCalls.length ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.input ?? {}) } })) } : {}),
      });
      continue;
    }
    const rest: UserContent[] = [];
    for (const p of m.content) {
      if (p.type !== 'tool_result') {
        rest.push(part(p));
        continue;
      }
      const text = p.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
      out.push({ role: 'tool', tool_call_id: p.callId, content: (p.isError ? '[error] ' : '') + (text || '(no text output)') });
      for (const c of p.content) if (c.type === 'image') rest.push(part(c));
    }
    if (rest.length) out.push({ role: 'user', content: rest.every((r) => r.type === 'text') ? rest.map((r) => (r as { text: string }).text).join('\n\n') : rest });
  }
  return out;
}

function parseArgs(s: string): unknown {
  if (!s.trim()) return {};
  try {
    return JSON.parse(s);
  } catch {
    // Handed to runTool as-is: zod then reports the problem to the model with a hint.
    return { __unparsedArguments: s };
  }
}

/** OpenAI and every endpoint speaking Chat Completions (Ollama, vLLM, DeepSeek, Qwen, GLM, OpenRouter…). */
export function openaiProvider(o: OpenAIOptions): ChatProvider {
  const client = new OpenAI({ apiKey: o.apiKey || 'not-needed', baseURL: o.baseURL || undefined, maxRetries: 0, timeout: 120_000 });
  return {
    id: 'openai',
    label: `${o.name ?? 'OpenAI-compatible'} · ${o.model}`,
    capabilities: { tools: true, vision: o.vision },
    async send(req: ModelRequest): Promise<ModelReply> {
      const base = {
        model: o.model,
        messages: toOpenAIMessages(req.system, req.messages),
        ...(req.tools.length ? { tools: req.tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.inputSchema } })) } : {}),
      };
      if (o.stream === false) {
        const r = await client.chat.completions.create({ ...base, stream: false }, { signal: req.signal });
        const msg = r.choices[0]?.message;
        const text = msg?.content ?? '';
        if (text) req.onText?.(text);
        return {
          text,
          toolCalls: (msg?.tool_calls ?? []).flatMap((c) => (c.type === 'function' ? [{ id: c.id, name: c.function.name, input: parseArgs(c.function.arguments) }] : [])),
          usage: r.usage ? { inputTokens: r.usage.prompt_tokens, outputTokens: r.usage.completion_tokens } : undefined,
        };
      }
      const stream = await client.chat.completions.create({ ...base, stream: true, stream_options: { include_usage: true } }, { signal: req.signal });
      let text = '';
      let usage: ModelReply['usage'];
      const calls = new Map<number, { id: string; name: string; args: string }>();
      for await (const chunk of stream) {
        if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
        const delta = chunk.choices[0]?.delta;
        if (!delta) continue;
        if (delta.content) {
          text += delta.content;
          req.onText?.(delta.content);
        }
        for (const tc of delta.tool_calls ?? []) {
          const c = calls.get(tc.index) ?? { id: '', name: '', args: '' };
          if (tc.id) c.id = tc.id;
          if (tc.function?.name) c.name += tc.function.name;
          if (tc.function?.arguments) c.args += tc.function.arguments;
          calls.set(tc.index, c);
        }
      }
      const toolCalls: ToolCall[] = [...calls.entries()].sort((a, b) => a[0] - b[0]).map(([i, c]) => ({ id: c.id || `call_${i}`, name: c.name, input: parseArgs(c.args) }));
      return { text, toolCalls, usage };
    },
  };
}
