import type { Socket } from 'node:net';
import type { BrowserHub, HubClient } from './hub';
import type { DaemonMessage, SessionInfo } from './protocol';

const RESPONSE_ID = /^\{"id":(\d+)/;
/** Answers kept for re-sent requests after a reconnect: a few, and never more than this many bytes. */
const DONE_KEEP = 32;
const DONE_BYTES = 16 * 1024 * 1024;
/** Messages kept for a client whose socket dropped, until it resumes or the grace period ends. */
const BUFFER_BYTES = 64 * 1024 * 1024;

/**
 * One client of the daemon (an MCP server process, a VS Code window) and its tabs in one browser.
 * Requests carry the client's CDP ids: a request re-sent after a reconnect is answered from what
 * was already answered, or left to the call still running, and never executed twice.
 */
export class DaemonSession implements HubClient {
  discover = false;
  activeTarget?: string;
  readonly startedAt = Date.now();
  lastActivity = Date.now();
  /** CDP requests and messages (answers and events) this session has passed, for `status`. */
  requests = 0;
  messages = 0;
  socket?: Socket;
  ended = false;
  private readonly inflight = new Set<number>();
  private readonly done = new Map<number, string>();
  private doneBytes = 0;
  private buffer: string[] = [];
  private bufferBytes = 0;
  graceTimer?: NodeJS.Timeout;

  constructor(
    readonly id: string,
    readonly client: string,
    readonly pid: number,
    readonly hub: BrowserHub,
    readonly browserKey: string,
    readonly kind: 'launched' | 'attached',
    /** The client speaks CDP to the browser itself; this socket carries only control messages. */
    readonly direct = false,
  ) {}

  attach(socket: Socket): void {
    this.socket = socket;
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    const queued = this.buffer;
    this.buffer = [];
    this.bufferBytes = 0;
    if (queued.length) socket.write(`${queued.join('\n')}\n`);
  }

  detach(): void {
    this.socket = undefined;
  }

  send(msg: DaemonMessage): void {
    this.socket?.write(`${JSON.stringify(msg)}\n`);
  }

  /** A CDP line from the client. */
  request(line: string): void {
    this.lastActivity = Date.now();
    this.requests++;
    const m = RESPONSE_ID.exec(line);
    if (m) {
      const id = Number(m[1]);
      if (this.inflight.has(id)) return; // re-sent while still running: its answer is on the way
      const answered = this.done.get(id);
      if (answered !== undefined) return this.write(answered);
      this.inflight.add(id);
    }
    this.hub.fromClient(this, line);
  }

  deliver(line: string): void {
    if (this.ended || this.direct) return;
    this.messages++;
    const m = RESPONSE_ID.exec(line);
    if (m) {
      const id = Number(m[1]);
      this.inflight.delete(id);
      this.done.set(id, line);
      this.doneBytes += line.length;
      while (this.done.size > DONE_KEEP || this.doneBytes > DONE_BYTES) {
        const [oldest, text] = this.done.entries().next().value as [number, string];
        this.done.delete(oldest);
        this.doneBytes -= text.length;
      }
    }
    this.write(line);
  }

  private write(line: string) {
    if (this.socket && !this.socket.destroyed) {
      this.socket.write(`${line}\n`);
      return;
    }
    if (this.bufferBytes + line.length > BUFFER_BYTES) return; // a client away this long resumes without old events
    this.buffer.push(line);
    this.bufferBytes += line.length;
  }

  info(): SessionInfo {
    return {
      id: this.id,
      client: this.client,
      pid: this.pid,
      browser: this.browserKey,
      tabs: this.hub.tabsOf(this).map((t) => ({ id: t.targetId, title: t.title, url: t.url })),
      startedAt: this.startedAt,
      lastActivity: this.lastActivity,
      connected: !!this.socket,
      transport: this.direct ? 'direct' : 'proxy',
      requests: this.requests,
      messages: this.messages,
    };
  }
}
