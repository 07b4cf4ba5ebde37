import { ProviderError, type ChatProvider, type ModelRequest, type ModelReply } from '../types';

export interface RetryOptions {
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Told before each wait, so the panel can say "rate limited, retrying in 2 s". */
  onRetry?(attempt: number, delayMs: number, error: Error): void;
}

export const DEFAULT_RETRY: RetryOptions = { retries: 4, baseDelayMs: 1000, maxDelayMs: 30_000 };

/** 408/409/429 and 5xx are worth another try; auth and bad-request errors are not. */
export function isTransient(e: unknown): boolean {
  const status = statusOf(e);
  if (status === undefined) return e instanceof Error && /ECONNRESET|ECONNREFUSED|socket hang up|fetch failed|Connection error/i.test(e.message);
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function statusOf(e: unknown): number | undefined {
  const s = (e as { status?: unknown })?.status;
  return typeof s === 'number' ? s : undefined;
}

/** Retry-After (seconds or date) or retry-after-ms from the SDK error's headers. */
function retryAfterOf(e: unknown): number | undefined {
  if (e instanceof ProviderError && e.retryAfterMs !== undefined) return e.retryAfterMs;
  const h = (e as { headers?: Headers | Record<string, string> })?.headers;
  const get = (k: string) => (h && typeof (h as Headers).get === 'function' ? (h as Headers).get(k) : (h as Record<string, string> | undefined)?.[k]) ?? undefined;
  const ms = Number(get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const ra = get('retry-after');
  if (!ra) return undefined;
  const secs = Number(ra);
  if (Number.isFinite(secs)) return secs * 1000;
  const at = Date.parse(ra);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Wraps a provider: transient failures (429, 5xx, dropped connections) are retried with exponential backoff and jitter. */
export function withRetry(inner: ChatProvider, opts: RetryOptions = DEFAULT_RETRY): ChatProvider {
  return {
    id: inner.id,
    label: inner.label,
    capabilities: inner.capabilities,
    async send(req: ModelRequest): Promise<ModelReply> {
      for (let attempt = 0; ; attempt++) {
        let streamed = false;
        try {
          return await inner.send({ ...req, onText: req.onText && ((d) => ((streamed = true), req.onText!(d))) });
        } catch (e) {
          // Text already shown to the user cannot be taken back: only retry before the stream started.
          if (req.signal.aborted || streamed || attempt >= opts.retries || !isTransient(e)) throw e;
          const backoff = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** attempt) * (0.8 + Math.random() * 0.4);
          const delay = Math.min(opts.maxDelayMs, retryAfterOf(e) ?? backoff);
          opts.onRetry?.(attempt + 1, delay, e as Error);
          await sleep(delay, req.signal);
        }
      }
    },
  };
}
