import Anthropic from '@anthropic-ai/sdk';
import type { ContentPart } from '../../contract/types';
import type { AgentMessage, ChatProvider, ModelReply, ModelRequest } from '../types';

export interface AnthropicOptions {
  apiKey: string;
  model: string;
  baseURL?: string;
  maxTokens?: number;
  stream?: boolean;
}

type Block = Anthropic.Messages.ContentBlockParam;

function media(p: ContentPart): Anthropic.Messages.TextBlockParam | Anthropic.Messages.ImageBlockParam {
  return p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image', source: { type: 'base64', media_type: p.mimeType, data: p.data } };
}

export function toAnthropicMessages(messages: AgentMessage[]): Anthropic.Messages.MessageParam[] {
  return messages.map((m) => {
    if (m.role === 'assistant') {
      const content: Block[] = [];
      if (m.text) content.push({ type: 'text', text: m.text });
      for (const c of m.toolCalls) content.push({ type: 'tool_use', id: c.id, name: c.name, input: c.input ?? {} });
      return { role: 'assistant', content: content.length ? content : [{ type: 'text', text: '…' }] };
    }
    const content: Block[] = m.content.map((p) =>
      p.type === 'tool_result'
        ? { type: 'tool_result', tool_use_id: p.callId, is_error: p.isError || undefined, content: p.content.map(media) }
        : media(p),
    );
    return { role: 'user', content };
  });
}

/** Claude through the Messages API (api.anthropic.com or any compatible base URL). */
export function anthropicProvider(o: AnthropicOptions): ChatProvider {
  // Retries are ours (withRetry), so they behave the same for every provider.
  const client = new Anthropic({ apiKey: o.apiKey, baseURL: o.baseURL || undefined, maxRetries: 0, timeout: 120_000 });
  return {
    id: 'anthropic',
    label: `Anthropic · ${o.model}`,
    capabilities: { tools: true, vision: true },
    async send(req: ModelRequest): Promise<ModelReply> {
      const params: Anthropic.Messages.MessageCreateParamsNonStreaming = {
        model: o.model,
        max_tokens: o.maxTokens ?? 4096,
        system: [{ type: 'text', text: req.system, cache_control: { type: 'ephemeral' } }],
        messages: toAnthropicMessages(req.messages),
        tools: req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema as Anthropic.Messages.Tool.InputSchema })),
      };
      let msg: Anthropic.Messages.Message;
      if (o.stream !== false) {
        const stream = client.messages.stream(params, { signal: req.signal });
        if (req.onText) stream.on('text', (d) => req.onText!(d));
        msg = await stream.finalMessage();
      } else {
        msg = await client.messages.create(params, { signal: req.signal });
        const t = msg.content.filter((b) => b.type === 'text').map((b) => b.text).join('');
        if (t) req.onText?.(t);
      }
      return {
        text: msg.content.filter((b) => b.type === 'text').map((b) => b.text).join(''),
        toolCalls: msg.content.filter((b) => b.type === 'tool_use').map((b) => ({ id: b.id, name: b.name, input: b.input })),
        usage: { inputTokens: msg.usage.input_tokens + (msg.usage.cache_read_input_tokens ?? 0) + (msg.usage.cache_creation_input_tokens ?? 0), outputTokens: msg.usage.output_tokens },
      };
    },
  };
}
