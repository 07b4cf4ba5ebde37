import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { BrowserAgentError } from '../base/errors';
import { EXTENSION_ORIGIN, RELAY_INTERRUPTED, RELAY_PROTOCOL, RELAY_TOKEN_PREFIX, type DaemonRelayMessage, type ExtensionMessage, type RelayRequest, type RelaySessionView, type SharedTab } from '../session/relayProtocol';
import type { RelayLink } from '../session/relayTransport';
import type { RelayPairing } from './relayPairing';

/** How long the extension's service worker may be away (stopped by Chrome, restarting) before its tabs count as gone. */
export const RELAY_GRACE_MS = 60_000;

interface Pending {
  req: RelayRequest;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
  /** Sent on a connection that is gone: the next one gets it as a retry. */
  sent: boolean;
}

/** Calls that only read (and setting a tab's request rules, which are the same rules when set twice): safe to send again after a reconnect. */
const READ_ONLY = /^(DOM\.(getBoxModel|getContentQuads|describeNode|getDocument|querySelector|querySelectorAll|resolveNode|getNodeForLocation|getFrameOwner|getOuterHTML)|Accessibility\.(getFullAXTree|getPartialAXTree|queryAXTree|getChildAXNodes)|DOMSnapshot\.captureSnapshot|Page\.(getFrameTree|getLayoutMetrics|captureScreenshot|getNavigationHistory)|Runtime\.getProperties|Network\.getResponseBody|Target\.getTargetInfo)$/;

function readOnly(req: RelayRequest): boolean {
  return req.op === 'activate' || req.op === 'rules' || (req.op === 'cdp' && READ_ONLY.test(req.method));
}

function sameToken(given: string, want: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(want);
  return b.length >= 32 && a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The daemon's endpoint for the companion Chrome extension: a WebSocket on 127.0.0.1 only, open
 * only while relay mode is on, accepting only a `chrome-extension://` Origin that presents the
 * pairing token. One extension connection at a time; a newer one replaces the old. Requests carry
 * ids, and those unanswered when the service worker went away are sent again, marked as retries,
 * when it reconnects: the extension never runs one twice.
 */
export class RelayServer implements RelayLink {
  tabs: SharedTab[] = [];
  ontabs?: (tabs: SharedTab[]) => void;
  onevent?: (tabId: number, sessionId: string | undefined, method: string, params: unknown) => void;
  onclose?: () => void;
  closeReason?: string;
  /** The side panel's Stop button. */
  onstop?: (session: string) => void;
  /** Fired on every (re)connection, and when the connection drops. */
  onconnect?: () => void;
  ondisconnect?: () => void;
  private wss?: WebSocketServer;
  private socket?: WebSocket;
  private nextRid = 1;
  private readonly pending = new Map<number, Pending>();
  private graceTimer?: NodeJS.Timeout;
  private socketToken = '';
  private waiters: (() => void)[] = [];
  /** Connections since start, and how many came back after a drop (for status and tests). */
  connections = 0;
  port = 0;
  private readonly epoch = randomUUID();

  constructor(
    private readonly pairing: RelayPairing,
    private readonly log: (line: string) => void = () => {},
    private readonly graceMs = RELAY_GRACE_MS,
  ) {}

  get connected(): boolean {
    return !!this.socket;
  }

  async listen(): Promise<void> {
    const tokens = new WeakMap<IncomingMessage, string>();
    const wss = new WebSocketServer({
      host: '127.0.0.1',
      port: this.pairing.port,
      maxPayload: 256 * 1024 * 1024,
      perMessageDeflate: false,
      verifyClient: (info: { origin: string; req: IncomingMessage }, done: (ok: boolean, code?: number, message?: string) => void) => {
        const origin = info.origin ?? info.req.headers.origin ?? '';
        if (!EXTENSION_ORIGIN.test(origin)) {
          this.log(`Relay: refused a connection from origin ${JSON.stringify(origin.slice(0, 100))}`);
          return done(false, 403, 'Forbidden origin');
        }
        const protocols = String(info.req.headers['sec-websocket-protocol'] ?? '').split(',').map((s) => s.trim());
        const token = protocols.find((p) => p.startsWith(RELAY_TOKEN_PREFIX))?.slice(RELAY_TOKEN_PREFIX.length) ?? '';
        if (!protocols.includes(RELAY_PROTOCOL) || !sameToken(token, this.pairing.token)) {
          this.log(`Relay: refused a connection from ${origin} without the pairing token`);
          return done(false, 401, 'Pairing token required');
        }
        tokens.set(info.req, token);
        done(true);
      },
      handleProtocols: () => RELAY_PROTOCOL,
    });
    await new Promise<void>((resolve, reject) => {
      wss.once('error', (e) => reject(new BrowserAgentError('LAUNCH_FAILED', `The relay endpoint could not listen on 127.0.0.1:${this.pairing.port}: ${e.message}`, 'Another program uses that port: pair again with another port (BROWSER_AGENT_RELAY_PORT).')));
      wss.once('listening', () => resolve());
    });
    wss.on('error', () => {});
    this.port = (wss.address() as { port: number }).port;
    this.wss = wss;
    wss.on('connection', (ws, req) => this.accept(ws, tokens.get(req) ?? ''));
    this.log(`Relay endpoint listening on 127.0.0.1:${this.port}`);
  }

  /** Resolves once the extension is connected; fails after `timeoutMs`. */
  waitConnected(timeoutMs: number): Promise<void> {
    if (this.socket) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        reject(
          new BrowserAgentError(
            'ATTACH_FAILED',
            `The Browser Agent Chrome extension is not connected (relay on 127.0.0.1:${this.port}).`,
            'Open Chrome with the extension installed, paste the pairing code from "Browser Agent: Pair Chrome Extension" into its side panel, then share a tab.',
          ),
        );
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(done);
    });
  }

  /** The connected extension's token is no longer the pairing's ("New Code"): close its connection. */
  dropRevoked(): boolean {
    if (!this.socket || sameToken(this.socketToken, this.pairing.token)) return false;
    this.log('Relay: the pairing code was replaced; the extension connected with the old one is let go');
    this.socket.close(4001, 'The pairing code was replaced: paste the new one');
    return true;
  }

  private accept(ws: WebSocket, token: string) {
    let hello = false;
    const helloTimer = setTimeout(() => !hello && ws.terminate(), 10_000);
    ws.on('message', (data) => {
      let msg: ExtensionMessage;
      try {
        msg = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (!hello) {
        if (msg.t !== 'hello') return ws.close(1008, 'hello first');
        hello = true;
        clearTimeout(helloTimer);
        this.socketToken = token;
        this.connected_(ws, msg.tabs ?? []);
        return;
      }
      this.message(ws, msg);
    });
    ws.on('close', () => {
      clearTimeout(helloTimer);
      if (this.socket === ws) this.dropped();
    });
    ws.on('error', () => {});
  }

  private connected_(ws: WebSocket, tabs: SharedTab[]) {
    const old = this.socket;
    this.socket = ws;
    if (old) old.close(4000, 'replaced by a newer connection');
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    this.connections++;
    this.closeReason = undefined;
    this.log(`Relay: extension connected (${tabs.length} shared tab(s))`);
    this.write({ t: 'welcome', v: 1, daemonPid: process.pid, epoch: this.epoch });
    this.setTabs(tabs);
    // What the previous connection never answered. A call that only reads is sent again; any other
    // may already have taken effect (the worker that ran it was stopped before it answered), so it
    // fails rather than run twice: a reconnect never repeats a click.
    const again: string[] = [];
    const cut: string[] = [];
    for (const [rid, p] of this.pending) {
      const what = p.req.op === 'cdp' ? p.req.method : p.req.op;
      if (!p.sent) this.write({ t: 'req', rid, ...p.req });
      else if (readOnly(p.req)) {
        again.push(what);
        this.write({ t: 'req', rid, retry: true, ...p.req });
      } else {
        cut.push(what);
        this.pending.delete(rid);
        clearTimeout(p.timer);
        const call = p.req.op === 'cdp' ? p.req.method : `the relay's ${p.req.op}`;
        p.reject(Object.assign(new Error(`${RELAY_INTERRUPTED}: Chrome stopped the Browser Agent extension's service worker while ${call} ran; it was not sent again (it may or may not have taken effect).`), { cdpCode: -32000 }));
      }
    }
    if (again.length || cut.length) this.log(`Relay: unanswered when the worker went away: sent again ${JSON.stringify(again)}, failed as interrupted ${JSON.stringify(cut)}`);
    for (const p of this.pending.values()) p.sent = true;
    this.onconnect?.();
    for (const w of this.waiters.splice(0)) w();
  }

  private message(ws: WebSocket, msg: ExtensionMessage) {
    if (ws !== this.socket) return;
    switch (msg.t) {
      case 'result': {
        const p = this.pending.get(msg.rid);
        if (!p) return;
        this.pending.delete(msg.rid);
        clearTimeout(p.timer);
        if (msg.error) p.reject(Object.assign(new Error(msg.error.message), { cdpCode: msg.error.code }));
        else p.resolve(msg.result ?? {});
        return;
      }
      case 'event':
        return this.onevent?.(msg.tabId, msg.sessionId, msg.method, msg.params);
      case 'tabs':
        return this.setTabs(msg.tabs ?? []);
      case 'stop':
        return this.onstop?.(String(msg.session));
      case 'ping':
        return this.write({ t: 'pong' });
    }
  }

  private setTabs(tabs: SharedTab[]) {
    this.tabs = tabs;
    this.ontabs?.(tabs);
  }

  private dropped() {
    this.socket = undefined;
    this.ondisconnect?.();
    for (const p of this.pending.values()) p.sent = true;
    this.log(`Relay: extension disconnected; waiting ${Math.round(this.graceMs / 1000)} s for it to come back`);
    clearTimeout(this.graceTimer);
    this.graceTimer = setTimeout(() => this.gone('The Chrome extension disconnected and did not come back.'), this.graceMs);
  }

  /** The extension is gone for good: its tabs with it. */
  private gone(reason: string) {
    this.closeReason = reason;
    for (const [rid, p] of this.pending) {
      this.pending.delete(rid);
      clearTimeout(p.timer);
      p.reject(new BrowserAgentError('BROWSER_DISCONNECTED', reason));
    }
    this.tabs = [];
    this.onclose?.();
  }

  request(req: RelayRequest, timeoutMs = 30_000): Promise<any> {
    if (this.closeReason && !this.socket) return Promise.reject(new BrowserAgentError('BROWSER_DISCONNECTED', this.closeReason));
    const rid = this.nextRid++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(rid);
        reject(new Error(`The Chrome extension did not answer ${req.op === 'cdp' ? req.method : req.op} within ${timeoutMs} ms.`));
      }, timeoutMs);
      this.pending.set(rid, { req, resolve, reject, timer, sent: !!this.socket });
      if (this.socket) this.write({ t: 'req', rid, ...req });
    });
  }

  /** What the side panel shows. */
  sessions(list: RelaySessionView[]): void {
    this.write({ t: 'sessions', sessions: list });
  }

  private write(msg: DaemonRelayMessage) {
    if (this.socket?.readyState === 1) this.socket.send(JSON.stringify(msg));
  }

  async close(): Promise<void> {
    clearTimeout(this.graceTimer);
    this.socket?.close(1001, 'relay mode off');
    this.socket = undefined;
    if (!this.closeReason) this.gone('The relay endpoint closed.');
    for (const c of this.wss?.clients ?? []) c.terminate();
    await new Promise<void>((r) => (this.wss ? this.wss.close(() => r()) : r()));
  }
}
