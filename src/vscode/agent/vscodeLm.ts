import * as vscode from 'vscode';
import type { ContentPart } from '../../contract/types';
import type { AgentMessage, ChatProvider, ModelReply, ModelRequest, ToolCall } from '../../agent/types';
import { ProviderError } from '../../agent/types';

function parts(content: ContentPart[]): Array<vscode.LanguageModelTextPart | vscode.LanguageModelDataPart> {
  return content.map((c) =>
    c.type === 'text' ? new vscode.LanguageModelTextPart(c.text) : vscode.LanguageModelDataPart.image(Buffer.from(c.data, 'base64'), c.mimeType),
  );
}

export function toLmMessages(system: string, messages: AgentMessage[]): vscode.LanguageModelChatMessage[] {
  // The LM API has no system role: the system prompt leads the first user message.
  const out: vscode.LanguageModelChatMessage[] = [vscode.LanguageModelChatMessage.User(system)];
  for (const m of messages) {
    if (m.role === 'assistant') {
      const content: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> = [];
      if (m.text) content.push(new vscode.LanguageModelTextPart(m.text));
      for (const c of m.toolCalls) content.push(new vscode.LanguageModelToolCallPart(c.id, c.name, (c.input ?? {}) as object));
      out.push(vscode.LanguageModelChatMessage.Assistant(content.length ? content : '…'));
      continue;
    }
    const content: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart | vscode.LanguageModelDataPart> = [];
    for (const p of m.content) {
      if (p.type === 'tool_result') content.push(new vscode.LanguageModelToolResultPart(p.callId, parts(p.content)));
      else content.push(...parts([p]));
    }
    out.push(vscode.LanguageModelChatMessage.User(content));
  }
  return out;
}

/** Guess from the family name; the public LM API does not expose image support. */
export function lmHasVision(model: vscode.LanguageModelChat): boolean {
  return /gpt-4o|gpt-4\.1|gpt-5|claude|gemini|vision|-vl/i.test(`${model.family} ${model.id}`);
}

/** A model from VS Code's Language Model API (Copilot or any extension's provider): no key needed. */
export function vscodeLmProvider(model: vscode.LanguageModelChat): ChatProvider {
  return {
    id: 'vscode-lm',
    label: `${model.vendor} · ${model.name}`,
    capabilities: { tools: true, vision: lmHasVision(model) },
    async send(req: ModelRequest): Promise<ModelReply> {
      const cts = new vscode.CancellationTokenSource();
      const onAbort = () => cts.cancel();
      req.signal.addEventListener('abort', onAbort, { once: true });
      try {
        const response = await model.sendRequest(
          toLmMessages(req.system, req.messages),
          {
            justification: 'Browser Agent runs the task you typed in its chat panel.',
            tools: req.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
            toolMode: vscode.LanguageModelChatToolMode.Auto,
          },
          cts.token,
        );
        let text = '';
        const toolCalls: ToolCall[] = [];
        for await (const part of response.stream) {
          if (part instanceof vscode.LanguageModelTextPart) {
            text += part.value;
            req.onText?.(part.value);
          } else if (part instanceof vscode.LanguageModelToolCallPart) {
            toolCalls.push({ id: part.callId, name: part.name, input: part.input });
          }
        }
        return { text, toolCalls };
      } catch (e) {
        if (e instanceof vscode.LanguageModelError) {
          // "Blocked"/quota errors are rate limits in practice; retried like a 429.
          const status = /blocked|quota|rate/i.test(`${e.code} ${e.message}`) ? 429 : e.code === 'NoPermissions' ? 403 : undefined;
          throw new ProviderError(`${e.code}: ${e.message}`, status);
        }
        throw e;
      } finally {
        req.signal.removeEventListener('abort', onAbort);
        cts.dispose();
      }
    },
  };
}
