/**
 * A model backend's failure in words a person acts on: what went wrong, at which endpoint, and the buttons that fix
 * it. The provider's own text (often "401 Incorrect API key provided" or "Connection error.") names neither the
 * endpoint nor the fix; a person with a local model and a typo in the port needs both.
 */

/** Where a model is reached, as the panel names it. */
export interface ModelEndpoint {
  provider: 'vscode-lm' | 'anthropic' | 'openai';
  /** The URL requests go to (empty for VS Code's models). */
  url: string;
  model: string;
}

/** The buttons a model error can offer, each handled by the panel. */
export const MODEL_FIXES = ['Set API Key', 'Retry', 'Choose Model', 'Set Base URL', 'Open Settings', 'Show Log'] as const;
export type ModelFix = (typeof MODEL_FIXES)[number];

export interface ModelProblem {
  message: string;
  fixes: ModelFix[];
}

export const DEFAULT_URLS = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com' } as const;

/** "the endpoint http://127.0.0.1:11434/v1" / "VS Code's model copilot · GPT-4.1". */
export function endpointName(ep: ModelEndpoint): string {
  return ep.provider === 'vscode-lm' ? `VS Code's model ${ep.model}` : `the endpoint ${ep.url}`;
}

function statusOf(e: unknown): number | undefined {
  const s = (e as { status?: unknown })?.status;
  return typeof s === 'number' ? s : undefined;
}

/** The socket-level cause under an SDK's "Connection error." (ECONNREFUSED, ENOTFOUND, a timeout). */
function causeCode(e: unknown): string | undefined {
  for (let c: unknown = e, i = 0; c && i < 5; c = (c as { cause?: unknown }).cause, i++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    const m = /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|ETIMEDOUT|EHOSTUNREACH)\b/.exec(String((c as { message?: unknown }).message ?? ''));
    if (m) return m[1];
  }
  return undefined;
}

/** The provider's own words, one line, without the status number the SDKs put in front. */
function providerText(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.split('\n')[0].replace(/^\d{3}\s+/, '').slice(0, 300);
}

/** `tried`: requests made before giving up (retries of a 500 or a refused connection). */
export function describeModelError(e: unknown, ep: ModelEndpoint, tried = 1): ModelProblem {
  const p = describe(e, ep, tried);
  return { ...p, message: p.message.charAt(0).toUpperCase() + p.message.slice(1) };
}

function describe(e: unknown, ep: ModelEndpoint, tried: number): ModelProblem {
  const where = endpointName(ep);
  const again = tried > 1 ? ` (tried ${tried} times)` : '';
  const status = statusOf(e);
  const said = providerText(e);
  if (ep.provider === 'vscode-lm') {
    const denied = status === 403 || /NoPermissions/i.test(said);
    return {
      message: denied ? `${where} is not allowed for Browser Agent: ${said}` : `${where} failed: ${said}`,
      fixes: ['Retry', 'Choose Model', 'Show Log'],
    };
  }
  if (status === 401 || status === 403) {
    return { message: `${where} refused the API key (${status}): ${said}`, fixes: ['Set API Key', 'Retry', 'Show Log'] };
  }
  if (status === 404) {
    return { message: `${where} has no model "${ep.model}" or no such API path (404): ${said}`, fixes: ['Choose Model', 'Set Base URL', 'Retry', 'Show Log'] };
  }
  if (status === 429) return { message: `${where} is rate limiting requests${again}: ${said}`, fixes: ['Retry', 'Show Log'] };
  if (status !== undefined && status >= 500) return { message: `${where} failed with ${status}${again}: ${said}`, fixes: ['Retry', 'Show Log'] };
  if (status !== undefined) return { message: `${where} answered ${status}: ${said}`, fixes: ['Retry', 'Open Settings', 'Show Log'] };
  const cause = causeCode(e);
  if (cause === 'ECONNREFUSED') {
    return { message: `Could not connect to ${where}: nothing answers there (connection refused)${again}. Is the model server running, and is the base URL right?`, fixes: ['Retry', 'Set Base URL', 'Show Log'] };
  }
  if (cause === 'ENOTFOUND' || cause === 'EAI_AGAIN') return { message: `Could not find the host of ${where} (${cause})${again}.`, fixes: ['Set Base URL', 'Retry', 'Show Log'] };
  if (cause || /Connection error|fetch failed|socket hang up|timed out/i.test(said)) {
    return { message: `Could not reach ${where}${cause ? ` (${cause})` : ''}${again}: ${said}`, fixes: ['Retry', 'Set Base URL', 'Show Log'] };
  }
  return { message: `${where}: ${said}`, fixes: ['Retry', 'Open Settings', 'Show Log'] };
}
