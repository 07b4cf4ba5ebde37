/**
 * Asks an OpenAI-compatible endpoint which models it has (GET <base>/models), so the panel can say whether it is
 * reachable and offer its models by name, and so a local Ollama or LM Studio is found without any setting.
 */
import { ignore } from '../../base/ignore';

export interface Probe {
  /** Something answered over HTTP (even a 404: the server is up, it just lists no models there). */
  reachable: boolean;
  /** The answer's status, when there was one. */
  status?: number;
  /** Model ids the endpoint lists (empty when it lists none or refused). */
  models: string[];
  /** Why it could not be reached (ECONNREFUSED, a timeout). */
  error?: string;
}

/** Local servers people run, on their default ports. */
export const LOCAL_SERVERS = [
  { name: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1' },
  { name: 'LM Studio', baseURL: 'http://127.0.0.1:1234/v1' },
] as const;

export async function probeModels(baseURL: string, apiKey = '', timeoutMs = 1500): Promise<Probe> {
  const url = `${baseURL.replace(/\/+$/, '')}/models`;
  try {
    const res = await fetch(url, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {}, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return { reachable: true, status: res.status, models: [] };
    const body = (await res.json().catch((e) => ignore(e, 'a body that is not JSON lists no models'))) as { data?: Array<{ id?: unknown }>; models?: Array<{ name?: unknown }> } | undefined;
    const ids = (body?.data ?? []).map((m) => m.id).concat((body?.models ?? []).map((m) => m.name));
    return { reachable: true, status: res.status, models: [...new Set(ids.filter((i): i is string => typeof i === 'string' && !!i))].sort() };
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    return { reachable: false, models: [], error: cause ?? ((e as Error).name === 'TimeoutError' ? 'no answer in time' : (e as Error).message) };
  }
}

/** The local servers that answer, with their models. */
export async function findLocalServers(timeoutMs = 800): Promise<Array<{ name: string; baseURL: string; models: string[] }>> {
  const found = await Promise.all(LOCAL_SERVERS.map(async (s) => ({ ...s, probe: await probeModels(s.baseURL, '', timeoutMs) })));
  return found.filter((f) => f.probe.reachable && f.probe.status === 200).map((f) => ({ name: f.name, baseURL: f.baseURL, models: f.probe.models }));
}
