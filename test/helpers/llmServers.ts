import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the scripted model answers on one request. */
export interface ScriptedReply {
  text?: string;
  toolCalls?: Array<{ name: string; input: unknown }>;
  /** Answer with this HTTP error status instead (429, 500…). */
  status?: number;
  retryAfter?: string;
  /** Wait before answering (a slow model); the test can abort meanwhile. */
  delayMs?: number;
}

export interface ScriptedRequest {
  index: number;
  body: any;
  /** Every string in the request's messages, the last message's strings separately. */
  allText: string;
  lastText: string;
}

export type Script = (req: ScriptedRequest) => ScriptedReply | Promise<ScriptedReply>;

export interface LlmServer {
  baseURL: string;
  requests: ScriptedRequest[];
  /** Requests whose client went away before the answer (aborted). */
  aborted: number;
  close(): Promise<void>;
}

function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => strings(x, out));
  return out;
}

async function readBody(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}

type Encoder = (res: ServerResponse, reply: ScriptedReply, body: any, n: number) => void;

function sse(res: ServerResponse, events: Array<[string | undefined, unknown]>, done?: string) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events) res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  if (done) res.write(`data: ${done}\n\n`);
  res.end();
}

/** Split text into a few pieces so streaming is really incremental. */
function pieces(s: string, n = 3): string[] {
  if (!s) return [];
  const size = Math.max(1, Math.ceil(s.length / n));
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

const anthropic: Encoder = (res, reply, body, n) => {
  const content: any[] = [];
  if (reply.text) content.push({ type: 'text', text: reply.text });
  (reply.toolCalls ?? []).forEach((c, i) => content.push({ type: 'tool_use', id: `toolu_${n}_${i}`, name: c.name, input: c.input }));
  const stop_reason = reply.toolCalls?.length ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: 100 + n, output_tokens: 10 };
  const message = { id: `msg_${n}`, type: 'message', role: 'assistant', model: body.model, content, stop_reason, stop_sequence: null, usage };
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(message));
    return;
  }
  const ev: Array<[string, unknown]> = [['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } }]];
  content.forEach((b, index) => {
    if (b.type === 'text') {
      ev.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }]);
      for (const p of pieces(b.text)) ev.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: p } }]);
    } else {
      ev.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } }]);
      for (const p of pieces(JSON.stringify(b.input))) ev.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: p } }]);
    }
    ev.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  ev.push(['message_delta', { type: 'message_delta', delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: 10 } }]);
  ev.push(['message_stop', { type: 'message_stop' }]);
  sse(res, ev);
};

const openai: Encoder = (res, reply, body, n) => {
  const tool_calls = (reply.toolCalls ?? []).map((c, i) => ({ id: `call_${n}_${i}`, type: 'function', function: { name: c.name, arguments: typeof c.input === 'string' ? c.input : JSON.stringify(c.input) } }));
  const finish_reason = tool_calls.length ? 'tool_calls' : 'stop';
  const base = { id: `chatcmpl-${n}`, created: 1_700_000_000, model: body.model };
  const usage = { prompt_tokens: 100 + n, completion_tokens: 10, total_tokens: 110 + n };
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: reply.text ?? null, ...(tool_calls.length ? { tool_calls } : {}) }, finish_reason, logprobs: null }], usage }));
    return;
  }
  const chunk = (delta: unknown, fr: string | null = null) => [undefined, { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: fr, logprobs: null }] }] as [undefined, unknown];
  const ev: Array<[undefined, unknown]> = [chunk({ role: 'assistant', content: '' })];
  for (const p of pieces(reply.text ?? '')) ev.push(chunk({ content: p }));
  tool_calls.forEach((c, index) => {
    ev.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }] }));
    for (const p of pieces(c.function.arguments)) ev.push(chunk({ tool_calls: [{ index, function: { arguments: p } }] }));
  });
  ev.push(chunk({}, finish_reason));
  if (body.stream_options?.include_usage) ev.push([undefined, { ...base, object: 'chat.completion.chunk', choices: [], usage }]);
  sse(res, ev, '[DONE]');
};

/** What a real endpoint also does: list its models (GET …/models) and refuse requests without its key (401). */
export interface EndpointOptions {
  models?: string[];
  apiKey?: string;
}

async function start(path: string, encode: Encoder, script: Script, errorBody: (status: number) => unknown, opts: EndpointOptions = {}): Promise<LlmServer> {
  const requests: ScriptedRequest[] = [];
  const state = { aborted: 0 };
  const server = createServer(async (req, res) => {
    const auth = req.headers.authorization ?? (req.headers['x-api-key'] ? `Bearer ${req.headers['x-api-key']}` : undefined);
    if (opts.apiKey && auth !== `Bearer ${opts.apiKey}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify(errorBody(401)));
      return;
    }
    if (req.method === 'GET' && req.url?.endsWith('/models') && opts.models) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: opts.models.map((id) => ({ id, object: 'model', owned_by: 'scripted' })) }));
      return;
    }
    if (req.method !== 'POST' || !req.url?.endsWith(path)) {
      res.writeHead(404).end();
      return;
    }
    const body = await readBody(req);
    const msgs = body.messages ?? [];
    const r: ScriptedRequest = { index: requests.length, body, allText: strings(msgs).join('\n'), lastText: strings(msgs.at(-1)).join('\n') };
    requests.push(r);
    let reply: ScriptedReply;
    try {
      reply = await script(r);
    } catch (e) {
      // 400, not 500: a failing script assertion must not be retried away.
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(errorBody(400)));
      console.error('script failed', e);
      return;
    }
    if (reply.delayMs) {
      let gone = false;
      // Counted the moment the client goes away, so a test can see a cancelled request without waiting out the delay.
      res.on('close', () => {
        if (!res.writableFinished && !gone) {
          gone = true;
          state.aborted++;
        }
      });
      await new Promise((ok) => setTimeout(ok, reply.delayMs));
      if (gone) return;
    }
    if (reply.status) {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.retryAfter ? { 'retry-after': reply.retryAfter } : {}) });
      res.end(JSON.stringify(errorBody(reply.status)));
      return;
    }
    encode(res, reply, body, r.index);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: '',
    requests,
    get aborted() {
      return state.aborted;
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
    ...{ port },
  } as LlmServer & { port: number };
}

/** A scripted model speaking the Anthropic Messages API (POST /v1/messages, JSON or SSE). */
export async function startAnthropicServer(script: Script, opts: EndpointOptions = {}): Promise<LlmServer> {
  const s = (await start('/v1/messages', anthropic, script, (status) => ({ type: 'error', error: { type: status === 429 ? 'rate_limit_error' : status === 401 ? 'authentication_error' : 'api_error', message: `scripted ${status}` } }), opts)) as LlmServer & { port: number };
  s.baseURL = `http://127.0.0.1:${s.port}`;
  return s;
}

/** A scripted model speaking OpenAI Chat Completions (POST /v1/chat/completions, JSON or SSE). */
export async function startOpenAIServer(script: Script, opts: EndpointOptions = {}): Promise<LlmServer> {
  const s = (await start('/chat/completions', openai, script, (status) => ({ error: { message: `scripted ${status}`, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null } }), opts)) as LlmServer & { port: number };
  s.baseURL = `http://127.0.0.1:${s.port}/v1`;
  return s;
}
