import * as vscode from 'vscode';
import type { ModelChoice } from '../chat/messages';
import type { AgentSettings } from './settings';
import type { AgentMode, ChatProvider } from '../../agent/types';
import { anthropicProvider } from '../../agent/providers/anthropic';
import { jsonFallback } from '../../agent/providers/jsonFallback';
import { openaiProvider } from '../../agent/providers/openai';
import { DEFAULT_RETRY, withRetry } from '../../agent/providers/retry';
import { vscodeLmProvider } from './vscodeLm';

export const SECRET_KEYS = { anthropic: 'browserAgent.anthropicApiKey', openai: 'browserAgent.openaiApiKey' } as const;

/** Everything the model picker can offer: VS Code's models plus the two configured endpoints. */
export async function listModelChoices(s: AgentSettings, lm: readonly vscode.LanguageModelChat[]): Promise<ModelChoice[]> {
  return [
    ...lm.map((m) => ({ provider: 'vscode-lm' as const, model: m.id, label: `${m.vendor} · ${m.name}` })),
    { provider: 'anthropic', model: s.anthropicModel, label: `Anthropic · ${s.anthropicModel}` },
    { provider: 'openai', model: s.openaiModel, label: `${s.openaiBaseURL ? 'OpenAI-compatible' : 'OpenAI'} · ${s.openaiModel}` },
  ];
}

export function selectedChoice(s: AgentSettings, choices: ModelChoice[]): ModelChoice | undefined {
  if (s.provider === 'vscode-lm') {
    const lm = choices.filter((c) => c.provider === 'vscode-lm');
    return lm.find((c) => c.model === s.vscodeLmModel) ?? lm.find((c) => /copilot/i.test(c.label)) ?? lm[0];
  }
  return choices.find((c) => c.provider === s.provider);
}

function visionFromName(model: string): boolean {
  return /gpt-4o|gpt-4\.1|gpt-5|o3|o4|claude|gemini|vision|-vl|llava|pixtral|qwen.*vl|glm-4\.?5?v/i.test(model);
}

export class MissingKeyError extends Error {}

/** The configured provider, wrapped with retries (and the JSON fallback when asked). */
export async function createProvider(s: AgentSettings, secrets: vscode.SecretStorage, onRetry?: (msg: string) => void): Promise<ChatProvider> {
  let p: ChatProvider;
  if (s.provider === 'anthropic') {
    const apiKey = await secrets.get(SECRET_KEYS.anthropic);
    if (!apiKey && !s.anthropicBaseURL) throw new MissingKeyError('No Anthropic API key. Run "Browser Agent: Set Anthropic API Key".');
    p = anthropicProvider({ apiKey: apiKey ?? 'none', model: s.anthropicModel, baseURL: s.anthropicBaseURL, stream: s.stream });
  } else if (s.provider === 'openai') {
    const apiKey = await secrets.get(SECRET_KEYS.openai);
    if (!apiKey && !s.openaiBaseURL) throw new MissingKeyError('No OpenAI API key. Run "Browser Agent: Set OpenAI-Compatible API Key" or set a base URL (Ollama needs no key).');
    const vision = s.openaiVision === 'on' || (s.openaiVision === 'auto' && visionFromName(s.openaiModel));
    const name = /11434|ollama/i.test(s.openaiBaseURL) ? 'Ollama' : s.openaiBaseURL ? 'OpenAI-compatible' : 'OpenAI';
    p = openaiProvider({ apiKey: apiKey ?? '', model: s.openaiModel, baseURL: s.openaiBaseURL, stream: s.stream, vision, name });
  } else {
    const all = await vscode.lm.selectChatModels();
    const model = all.find((m) => m.id === s.vscodeLmModel) ?? all.find((m) => m.family === s.vscodeLmModel) ?? all.find((m) => m.vendor === 'copilot') ?? all[0];
    if (!model) throw new MissingKeyError('No VS Code language model is available. Sign in to GitHub Copilot, or pick Anthropic / OpenAI in the model picker.');
    p = vscodeLmProvider(model);
  }
  const retried = withRetry(p, { ...DEFAULT_RETRY, onRetry: (n, ms, e) => onRetry?.(`${e.message} — retry ${n} in ${Math.round(ms / 100) / 10} s`) });
  return s.toolCalling === 'json' ? jsonFallback(retried) : retried;
}

export function resolveMode(setting: AgentSettings['mode'], p: ChatProvider): AgentMode {
  if (setting === 'dom') return 'dom';
  if (setting === 'hybrid') return p.capabilities.vision ? 'hybrid' : 'dom';
  return p.capabilities.vision ? 'hybrid' : 'dom';
}
