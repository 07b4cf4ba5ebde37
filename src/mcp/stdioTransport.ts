import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Largest JSON-RPC message accepted on stdin (`--max-input-bytes`). Tool inputs are far smaller. */
export const DEFAULT_MAX_INPUT_BYTES = 4 * 1024 * 1024;
/** How much of an oversized line we keep to find its request id (the SDK's client writes `id` last). */
const KEEP = 512;

/** JSON-RPC error codes. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/**
 * Newline-delimited JSON-RPC over stdin/stdout, like the SDK's StdioServerTransport, except that
 * bad input never ends the server: a line longer than `maxInputBytes` is dropped as it streams in
 * (never buffered whole) and answered with an error naming the limit; a line that is not JSON-RPC
 * gets a parse error. The SDK's transport closes itself — and so the server — on either.
 */
export class LimitedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private size = 0;
  /** Set while dropping an oversized line: its length so far, its first and last bytes. */
  private overflow?: { bytes: number; head: string; tail: Buffer };
  private started = false;

  constructor(
    readonly maxInputBytes = DEFAULT_MAX_INPUT_BYTES,
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
  ) {}

  private readonly onData = (chunk: Buffer) => {
    let rest = chunk;
    for (;;) {
      const nl = rest.indexOf(0x0a);
      if (nl < 0) {
        this.append(rest);
        return;
      }
      this.append(rest.subarray(0, nl));
      this.endLine();
      rest = rest.subarray(nl + 1);
    }
  };

  private readonly onStreamError = (e: Error) => this.onerror?.(e);

  async start(): Promise<void> {
    if (this.started) throw new Error('LimitedStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  private append(part: Buffer) {
    if (!part.length) return;
    if (this.overflow) {
      this.overflow.bytes += part.length;
      this.overflow.tail = Buffer.concat([this.overflow.tail, part]).subarray(-KEEP);
      return;
    }
    if (this.size + part.length > this.maxInputBytes) {
      const sofar = Buffer.concat([...this.chunks, part]);
      this.overflow = { bytes: sofar.length, head: sofar.subarray(0, KEEP).toString('utf8'), tail: Buffer.from(sofar.subarray(-KEEP)) };
      this.chunks = [];
      this.size = 0;
      return;
    }
    this.chunks.push(part);
    this.size += part.length;
  }

  private endLine() {
    if (this.overflow) {
      const { bytes, head, tail } = this.overflow;
      this.overflow = undefined;
      const id = requestIdOf(head, tail.toString('utf8'));
      const message = `Message too large: ${bytes} bytes; this server accepts at most ${this.maxInputBytes} bytes per message (--max-input-bytes). It was ignored; send smaller arguments.`;
      this.onerror?.(new Error(message));
      void this.reply(id, INVALID_REQUEST, message);
      return;
    }
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (!line.trim()) return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch (e) {
      const reason = `Invalid JSON-RPC message (${e instanceof SyntaxError ? 'not JSON' : 'not a JSON-RPC 2.0 message'}); it was ignored.`;
      this.onerror?.(new Error(reason));
      void this.reply(requestIdOf(line.slice(0, KEEP), line.slice(-KEEP)), PARSE_ERROR, reason);
      return;
    }
    this.onmessage?.(message);
  }

  /** An error response; without an id (unknown) it has none, which JSON-RPC allows for unreadable requests. */
  private reply(id: string | number | undefined, code: number, message: string): Promise<void> {
    return this.send({ jsonrpc: '2.0', ...(id !== undefined ? { id } : {}), error: { code, message } } as JSONRPCMessage);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.overflow = undefined;
    this.onclose?.();
  }
}

/**
 * The request id of a message we could not parse, from its first or last bytes: a top-level
 * `"id"` right after `"jsonrpc":"2.0"` at the start, or closing the object at the end.
 */
export function requestIdOf(head: string, tail: string): string | number | undefined {
  const value = String.raw`(-?\d+|"(?:[^"\\]|\\.){0,200}")`;
  const m = new RegExp(String.raw`"id"\s*:\s*${value}\s*\}\s*$`).exec(tail) ?? new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${value}`).exec(head);
  if (!m) return undefined;
  try {
    const id = JSON.parse(m[1]);
    return typeof id === 'number' || typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
