import { MAX_KEPT_BODY, type RequestEntry } from '../session/pageLog';

/** Bodies longer than this are cut (a page's bundle is megabytes); the cut is marked. */
export const MAX_BODY_CHARS = MAX_KEPT_BODY;
/** Headers that carry credentials: shown by name and length only, so they reach no model and no log. */
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|x-auth-token|x-csrf-token|x-xsrf-token)$|token|secret|password|api[-_]?key/i;
const TEXT_TYPE = /^(text\/|application\/(json|javascript|ecmascript|xml|x-www-form-urlencoded|ld\+json|graphql|problem\+json|[\w.+-]+\+(json|xml)))|svg/i;

const CREDENTIAL_NAME = String.raw`[\w.-]*(?:token|secret|passw(?:or)?d|pwd|api[-_]?key|credential|session[-_]?id|authorization)[\w.-]*`;
const JSON_CREDENTIAL = new RegExp(String.raw`("${CREDENTIAL_NAME}"\s*:\s*)"((?:[^"\\]|\\.)*)"`, 'gi');
const FORM_CREDENTIAL = new RegExp(String.raw`(^|&)(${CREDENTIAL_NAME})=([^&\s]*)`, 'gi');

/**
 * Bodies often carry credentials (a login's password, the access token it answers with): their values are
 * replaced by their length, in JSON and in form encoding, so a token reaches neither the model nor the audit log.
 */
export function redactCredentials(body: string): string {
  return body
    .replace(JSON_CREDENTIAL, (_m, key: string, v: string) => `${key}"[redacted, ${v.length} chars]"`)
    .replace(FORM_CREDENTIAL, (_m, pre: string, key: string, v: string) => `${pre}${key}=[redacted, ${v.length} chars]`);
}

/** `text` cut at MAX_BODY_CHARS; `more`: characters already left out before it came here. */
function cut(text: string, more = 0): string {
  const over = Math.max(0, text.length - MAX_BODY_CHARS) + more;
  return over ? `${text.slice(0, MAX_BODY_CHARS)}…(+${over} chars)` : text;
}

function headerLines(h: Record<string, string> | undefined): string[] {
  if (!h) return ['  (none)'];
  return Object.entries(h).map(([k, v]) => `  ${k}: ${CREDENTIAL_HEADER.test(k) ? `[redacted, ${String(v).length} chars]` : String(v).slice(0, 500)}`);
}

/** The request body: from the event (kept in part when long), or asked for (large bodies are not in the event). */
async function requestBody(r: RequestEntry): Promise<{ text: string; more: number } | undefined> {
  if (r.postData !== undefined) return { text: r.postData, more: Math.max(0, (r.postDataLength ?? 0) - r.postData.length) };
  if (!r.hasPostData) return undefined;
  try {
    return { text: (await r.session.send('Network.getRequestPostData', { requestId: r.requestId }, 5000)).postData, more: 0 };
  } catch {
    return { text: '(not available any more)', more: 0 };
  }
}

async function responseBody(r: RequestEntry): Promise<string> {
  if (r.redirectedTo) return '(a redirect: no body)';
  if (r.failed) return '(none: the request failed)';
  if (!r.finished) return '(still loading)';
  const type = Object.entries(r.responseHeaders ?? {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? r.mimeType ?? '';
  try {
    const { body, base64Encoded } = await r.session.send('Network.getResponseBody', { requestId: r.requestId }, 5000);
    if (!body) return '(empty)';
    if (!base64Encoded) return cut(redactCredentials(body));
    const bytes = Buffer.from(body, 'base64');
    const asText = bytes.toString('utf8');
    // Chrome sends some text base64-encoded (no content type, an unusual one): text is text if it reads as text.
    if (TEXT_TYPE.test(type) || !/[\u0000-\u0008\u000e-\u001f\ufffd]/.test(asText)) return cut(redactCredentials(asText));
    return `(binary ${type || 'data'}, ${bytes.length} bytes)`;
  } catch {
    // Chrome keeps bodies in a bounded buffer (tab.ts: Network.enable), and drops them with the document.
    return '(not available: the browser no longer holds it)';
  }
}

/** One request whole: status line, headers (credentials redacted), request and response bodies (cut). */
export async function requestDetails(r: RequestEntry): Promise<string> {
  const status = r.failed ? `failed: ${r.failed}` : r.status !== undefined ? `${r.status} ${r.statusText ?? ''}`.trim() : 'pending';
  const lines = [`#${r.id} ${r.method} ${r.url}`, `status: ${status}${r.redirectedTo ? ` → ${r.redirectedTo}` : ''}`, `type: ${r.type}${r.frame ? `, ${r.frame}` : ''}`];
  lines.push('request headers:', ...headerLines(r.requestHeaders));
  const sent = await requestBody(r);
  if (sent) lines.push('request body:', cut(redactCredentials(sent.text), sent.more));
  if (r.responseHeaders) lines.push('response headers:', ...headerLines(r.responseHeaders));
  lines.push('response body:', await responseBody(r));
  return lines.join('\n');
}
