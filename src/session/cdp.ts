import { EventEmitter } from 'node:events';
import type { ProtocolMapping } from 'devtools-protocol/types/protocol-mapping';
import { BrowserAgentError } from '../base/errors';
import { needsRenderer } from './crashedCalls';
import { checkBrowser, STALL_MS } from './liveness';
import { connectWebSocket, type CdpTransport } from './transport';

export type Commands = ProtocolMapping.Commands;
export type Events = ProtocolMapping.Events;
export type CommandName = keyof Commands;
export type EventName = keyof Events;
export type Params<M extends CommandName> = Commands[M]['paramsType'][0];
export type Result<M extends CommandName> = Commands[M]['returnType'];
export type EventParams<E extends EventName> = Events[E][0];

export const DEFAULT_CDP_TIMEOUT_MS = 30_000;

interface Pending {
  resolve: (v: any) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
  method: string;
  sessionId?: string;
}

export interface ConnectOptions {
  headers?: Record<string, string>;
  /** Timeout of each command unless the call gives its own. */
  timeoutMs?: number;
  /** Timeout of the WebSocket handshake. */
  connectTimeoutMs?: number;
}

/**
 * A CDP connection with flattened sessions (`sessionId` on every message) over one transport: a
 * WebSocket to the browser, or the session daemon's socket. Written on `ws` rather than
 * chrome-remote-interface because we need handshake headers (remote browser fleets), a timeout on
 * every command (a hung renderer must give an error, never a hang), typed commands from
 * `devtools-protocol` and other transports, none of which that client offers.
 */
export class CdpConnection extends EventEmitter {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private _closed = false;
  readonly timeoutMs: number;
  /** When the last message came in, and the check that runs while calls wait (see liveness.ts). */
  private lastHeard = Date.now();
  private stallTimer?: NodeJS.Timeout;
  private probing = false;
  /** Page sessions whose renderer died, with the error their renderer-bound calls get. */
  private readonly crashed = new Map<string, (method: string) => Error>();

  constructor(
    private readonly transport: CdpTransport,
    readonly url: string,
    opts: ConnectOptions = {},
  ) {
    super();
    this.setMaxListeners(0);
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_CDP_TIMEOUT_MS;
    transport.onmessage = (text) => this.onMessage(text);
    transport.onclose = () => this.onClose();
  }

  static async connect(url: string, opts: ConnectOptions = {}): Promise<CdpConnection> {
    return new CdpConnection(await connectWebSocket(url, opts), url, opts);
  }

  get closed(): boolean {
    return this._closed;
  }

  /** Once closed: why, when the transport knows (e.g. the session daemon exited). */
  get closeReason(): string | undefined {
    return this._closed ? this.transport.closeReason : undefined;
  }

  send<M extends CommandName>(method: M, params?: Params<M>, sessionId?: string, timeoutMs?: number): Promise<Result<M>> {
    if (this._closed) {
      return Promise.reject(new BrowserAgentError('BROWSER_DISCONNECTED', this.closeReason ?? `The browser connection is closed (while calling ${method}).`, 'The browser will be relaunched or reattached on the next action.'));
    }
    if (sessionId && this.crashed.size) {
      const crashed = this.crashed.get(sessionId);
      if (crashed && needsRenderer(method)) return Promise.reject(crashed(method));
    }
    const id = this.nextId++;
    const ms = timeoutMs ?? this.timeoutMs;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new BrowserAgentError('TIMEOUT', `CDP call ${method} got no answer within ${ms} ms.`, 'The page may be busy or hung (a long-running script, a blocking dialog). Try browser_handle_dialog, reload, or open a new tab.'));
      }, ms);
      this.pending.set(id, { resolve, reject, timer, method, sessionId });
      if (!this.stallTimer) {
        this.lastHeard = Date.now();
        this.stallTimer = setInterval(() => this.checkStall(), 1000);
        this.stallTimer.unref();
      }
      // Key order id, method, sessionId, params: the daemon routes on this prefix without parsing the rest.
      const message = sessionId ? { id, method, sessionId, params: params ?? {} } : { id, method, params: params ?? {} };
      try {
        this.transport.send(JSON.stringify(message));
      } catch (e) {
        this.settle(id, undefined, e as Error);
      }
    });
  }

  /** A handle that sends to one flattened session (a page, an iframe, a worker). */
  session(sessionId: string): CdpSession {
    return new CdpSession(this, sessionId);
  }

  /** What calls cut short by a close should say (e.g. the session daemon that owned the browser exited); undefined clears it. */
  setCloseReason(reason: string | undefined): void {
    if (!this._closed) this.transport.closeReason = reason;
  }

  /** Closes the connection; calls still waiting fail with `reason` when one is given. */
  close(reason?: string): void {
    if (this._closed) return;
    if (reason) this.transport.closeReason = reason;
    this.transport.close();
    this.onClose();
  }

  private settle(id: number, result: unknown, error?: Error) {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    if (error) p.reject(error);
    else p.resolve(result);
  }

  /**
   * Calls are waiting and nothing at all came for STALL_MS: a frozen browser or a stalled connection
   * answers nothing ever again, so the browser is asked directly, and the connection dropped if it is silent.
   */
  private checkStall() {
    if (this.pending.size === 0 || this._closed) {
      clearInterval(this.stallTimer);
      this.stallTimer = undefined;
      return;
    }
    const silent = Date.now() - this.lastHeard;
    if (silent < STALL_MS || this.probing) return;
    this.probing = true;
    void checkBrowser(this, silent).finally(() => (this.probing = false));
  }

  private onMessage(text: string) {
    this.lastHeard = Date.now();
    let msg: any;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof msg.id === 'number') {
      if (msg.error) {
        const p = this.pending.get(msg.id);
        this.settle(msg.id, undefined, new BrowserAgentError('CDP_ERROR', `${p?.method ?? 'CDP'}: ${msg.error.message}${msg.error.data ? ` (${msg.error.data})` : ''}`));
      } else {
        this.settle(msg.id, msg.result ?? {});
      }
    } else if (typeof msg.method === 'string') {
      // A target that went away (a page that closed itself) answers none of the calls still waiting on its session.
      if (msg.method === 'Target.detachedFromTarget' && typeof msg.params?.sessionId === 'string') {
        this.failSession(msg.params.sessionId);
        this.crashed.delete(msg.params.sessionId);
      }
      this.emit('event', msg.method, msg.params ?? {}, msg.sessionId);
      this.emit(msg.method, msg.params ?? {}, msg.sessionId);
    }
  }

  /**
   * The renderer behind `sessionId` died: the calls waiting on it fail now, and later calls it would have to
   * answer fail at once (see crashedCalls.ts) until `rendererBack`; `error` says what happened.
   */
  rendererCrashed(sessionId: string, error: (method: string) => Error): void {
    this.crashed.set(sessionId, error);
    for (const [id, p] of this.pending) if (p.sessionId === sessionId && needsRenderer(p.method)) this.settle(id, undefined, error(p.method));
  }

  /** A navigation (or reload) gave the page a new renderer. */
  rendererBack(sessionId: string): void {
    this.crashed.delete(sessionId);
  }

  private failSession(sessionId: string) {
    for (const [id, p] of this.pending) {
      if (p.sessionId === sessionId) this.settle(id, undefined, new BrowserAgentError('TAB_CLOSED', `The tab or frame closed while ${p.method} ran.`, 'List tabs with browser_tabs and go on in another one.'));
    }
  }

  private onClose() {
    if (this._closed) return;
    this._closed = true;
    clearInterval(this.stallTimer);
    const reason = this.transport.closeReason ?? 'The browser connection closed before the call finished.';
    for (const [id] of this.pending) {
      this.settle(id, undefined, new BrowserAgentError('BROWSER_DISCONNECTED', reason, 'The browser will be relaunched or reattached on the next action.'));
    }
    this.emit('disconnected');
  }
}

export type Unsubscribe = () => void;

/** Commands and events of one flattened target session. */
export class CdpSession {
  constructor(
    readonly connection: CdpConnection,
    readonly id: string,
  ) {}

  send<M extends CommandName>(method: M, params?: Params<M>, timeoutMs?: number): Promise<Result<M>> {
    return this.connection.send(method, params, this.id, timeoutMs);
  }

  on<E extends EventName>(event: E, handler: (params: EventParams<E>) => void): Unsubscribe {
    const listener = (params: EventParams<E>, sessionId?: string) => {
      if (sessionId === this.id) handler(params);
    };
    this.connection.on(event, listener);
    return () => this.connection.off(event, listener);
  }

  /** Resolves with the first matching event, rejects with TIMEOUT after `timeoutMs`. */
  waitFor<E extends EventName>(event: E, predicate: (p: EventParams<E>) => boolean = () => true, timeoutMs = 30_000): Promise<EventParams<E>> {
    return new Promise((resolve, reject) => {
      const off = this.on(event, (p) => {
        if (!predicate(p)) return;
        clearTimeout(timer);
        off();
        resolve(p);
      });
      const timer = setTimeout(() => {
        off();
        reject(new BrowserAgentError('TIMEOUT', `Waited ${timeoutMs} ms for ${event}.`));
      }, timeoutMs);
    });
  }
}
