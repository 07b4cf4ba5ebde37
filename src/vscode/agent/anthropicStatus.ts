import { DEFAULT_URLS } from '../../agent/providers/modelError';
import { probeModels, type Probe } from '../../agent/providers/probe';
import type { ProviderStatus } from '../chat/messages';

/**
 * Anthropic's row in the model setup. The SDK itself needs no key once a base URL is set (we send a placeholder),
 * so whether a run can start without one is the endpoint's answer: a local proxy may take requests without a key,
 * Anthropic and most gateways refuse them. Without a key the endpoint is asked (GET <base>/v1/models, no key):
 * ready only if it answers without refusing; a refusal or no answer says so and asks for what is missing.
 */
export async function anthropicStatus(baseURL: string, model: string, key: string | undefined, probe: (url: string) => Promise<Probe> = (u) => probeModels(u)): Promise<ProviderStatus> {
  const url = baseURL || DEFAULT_URLS.anthropic;
  const base = { provider: 'anthropic' as const, title: 'Anthropic', endpoint: url, model, keySaved: !!key };
  if (key) return { ...base, ready: true, detail: `API key saved · ${url}` };
  if (!baseURL) return { ...base, ready: false, detail: 'No API key saved' };
  const p = await probe(`${baseURL.replace(/\/+$/, '')}/v1`);
  if (!p.reachable) return { ...base, ready: false, detail: `No API key · ${url} does not answer (${p.error ?? 'unreachable'})` };
  if (p.status === 401 || p.status === 403) return { ...base, ready: false, detail: `No API key · ${url} refused a request without an API key (${p.status})` };
  if (p.status !== undefined && p.status < 300) {
    const n = p.models.length;
    return { ...base, ready: true, detail: `No API key · ${url} answers without one${n ? ` · ${n} model${n > 1 ? 's' : ''}` : ''}` };
  }
  // Up, but no model list there (many proxies serve only /v1/messages): whether it wants a key shows on the first run.
  return { ...base, ready: true, detail: `No API key · ${url} answers (no model list: ${p.status}); a key is asked for if it refuses a run` };
}
