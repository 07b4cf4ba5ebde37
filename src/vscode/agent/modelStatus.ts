import * as vscode from 'vscode';
import { DEFAULT_URLS, type ModelEndpoint } from '../../agent/providers/modelError';
import { findLocalServers, probeModels } from '../../agent/providers/probe';
import type { ProviderStatus } from '../chat/messages';
import { anthropicStatus } from './anthropicStatus';
import { SECRET_KEYS } from './factory';
import type { AgentSettings } from './settings';

export const PROVIDER_TITLES = { 'vscode-lm': 'VS Code LM', anthropic: 'Anthropic', openai: 'OpenAI-compatible' } as const;

/** Where the configured provider's requests go, for error messages that name it. */
export function endpointOf(s: AgentSettings, vscodeLmLabel = s.vscodeLmModel || 'none'): ModelEndpoint {
  if (s.provider === 'anthropic') return { provider: 'anthropic', url: s.anthropicBaseURL || DEFAULT_URLS.anthropic, model: s.anthropicModel };
  if (s.provider === 'openai') return { provider: 'openai', url: s.openaiBaseURL || DEFAULT_URLS.openai, model: s.openaiModel };
  return { provider: 'vscode-lm', url: '', model: vscodeLmLabel };
}

/**
 * Each provider with what it needs and has: VS Code's models (Copilot signed in or an extension that provides
 * them), a saved key, an endpoint that answers (asked with GET /models), a local Ollama or LM Studio. `ready`: a
 * run can start with it; `detail` says why not, in one line.
 */
export async function providerStatuses(s: AgentSettings, secrets: vscode.SecretStorage, lm: readonly vscode.LanguageModelChat[]): Promise<ProviderStatus[]> {
  const [anthropicKey, openaiKey] = await Promise.all([secrets.get(SECRET_KEYS.anthropic), secrets.get(SECRET_KEYS.openai)]);
  const vendors = [...new Set(lm.map((m) => m.vendor))];
  const vscodeLm: ProviderStatus = {
    provider: 'vscode-lm', title: PROVIDER_TITLES['vscode-lm'], ready: lm.length > 0, keySaved: false,
    detail: lm.length ? `${lm.length} model${lm.length > 1 ? 's' : ''} from ${vendors.join(', ')}` : 'No models: sign in to GitHub Copilot, or install an extension that provides language models',
  };
  const [anthropic, openai] = await Promise.all([anthropicStatus(s.anthropicBaseURL, s.anthropicModel, anthropicKey), openaiStatus(s, openaiKey)]);
  return [vscodeLm, anthropic, openai];
}

async function openaiStatus(s: AgentSettings, key: string | undefined): Promise<ProviderStatus> {
  const base: ProviderStatus = {
    provider: 'openai', title: PROVIDER_TITLES.openai, endpoint: s.openaiBaseURL || DEFAULT_URLS.openai, model: s.openaiModel, keySaved: !!key, ready: false, detail: '',
  };
  // Ollama or LM Studio on this machine: offered by name, so no one has to know their ports.
  const local = (await findLocalServers()).filter((l) => l.baseURL !== s.openaiBaseURL.replace(/\/+$/, ''));
  if (local.length) base.local = local.map((l) => ({ name: l.name, baseURL: l.baseURL, models: l.models.slice(0, 50) }));
  if (!s.openaiBaseURL) {
    return { ...base, ready: !!key, detail: key ? `API key saved · ${DEFAULT_URLS.openai}` : 'No API key and no base URL (a local server needs only its URL)' };
  }
  const probe = await probeModels(s.openaiBaseURL, key ?? '');
  if (!probe.reachable) return { ...base, detail: `${s.openaiBaseURL} does not answer (${probe.error ?? 'unreachable'})` };
  if (probe.status === 401 || probe.status === 403) return { ...base, detail: `${s.openaiBaseURL} refused ${key ? 'the saved API key' : 'a request without an API key'} (${probe.status})` };
  const models = probe.models.slice(0, 50);
  const missing = models.length && !models.includes(s.openaiModel) ? ` · "${s.openaiModel}" is not among them` : '';
  return { ...base, ready: true, models, detail: `${s.openaiBaseURL} answers${models.length ? ` · ${models.length} model${models.length > 1 ? 's' : ''}` : ''}${missing}` };
}
