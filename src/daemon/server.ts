import { randomUUID } from 'node:crypto';
import { rmSync, unlinkSync } from 'node:fs';
import type { Server, Socket } from 'node:net';
import { BrowserAgentError } from '../base/errors';
import { isBrowserPool, redactEndpoint } from '../session/remoteEngines';
import { Browsers, type Browser } from './browsers';
import { serveClient, type Hello } from './clientSocket';
import { handleControl, type ControlTarget } from './controlMessages';
import { listenPrivately, socketAlive } from './daemonSocket';
import { LaunchRecords } from './launchRecords';
import { withStartLock } from './startLock';
import { ensurePrivateSocket, type DaemonPaths } from './paths';
import { PROTOCOL_VERSION, type DaemonStatus } from './protocol';
import { RelayMode } from './relayMode';
import { DaemonSession } from './session';
import { claimUserPage } from './userPage';
import { ignore } from '../base/ignore';
import { processAlive } from '../base/processAlive';

// The daemon's parts, each in its own file: the client connection (clientSocket.ts) and its control messages
// (controlMessages.ts), the browsers and what they launched (browsers.ts, launchRecords.ts), relay mode
// (relayMode.ts). This file keeps the sessions and the daemon's life (listen, idle exit, stop).
export { browserKey } from './browserKey';
export { MAX_CLIENT_LINE } from './clientSocket';
export { socketAlive } from './daemonSocket';

/** Relay mode on, the extension not (yet) connected: how long the daemon waits for it when idle. */
const RELAY_IDLE_MS = 10 * 60_000;

export const DEFAULT_IDLE_MS = 60_000;
/** How long a session whose socket dropped waits for its client to resume it. */
const RESUME_GRACE_MS = 10_000;

export interface DaemonOptions {
  paths: DaemonPaths;
  /** Exit after this long without a session (default 60 s; BROWSER_AGENT_DAEMON_IDLE_MS). */
  idleMs?: number;
  log?: (line: string) => void;
}

/**
 * The per-user session daemon: owns the browser connections, gives each client its own session
 * and tabs, and exits after `idleMs` without a session, closing what it launched.
 */
export class Daemon {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private readonly sessions = new Map<string, DaemonSession>();
  private readonly records: LaunchRecords;
  private readonly browsers: Browsers;
  private readonly relay: RelayMode;
  private idleTimer?: NodeJS.Timeout;
  private stopping?: Promise<void>;
  readonly startedAt = Date.now();
  readonly idleMs: number;
  private readonly log: (line: string) => void;
  /** Resolves when the daemon has stopped. */
  readonly stopped: Promise<void>;
  private resolveStopped!: () => void;

  constructor(private readonly opts: DaemonOptions) {
    this.idleMs = opts.idleMs ?? DEFAULT_IDLE_MS;
    this.log = opts.log ?? (() => {});
    this.stopped = new Promise((r) => (this.resolveStopped = r));
    this.records = new LaunchRecords(opts.paths.browsers);
    this.relay = new RelayMode({
      log: this.log,
      session: (id) => this.sessions.get(id),
      sessions: () => this.sessions.values(),
      relayHub: () => this.browsers.get('relay')?.hub,
      changed: () => this.checkIdle(),
    });
    this.browsers = new Browsers({ records: this.records, log: this.log, relay: () => this.relay.start(), onGone: (b) => this.browserGone(b) });
  }

  /** Binds the socket, or fails with `already running` when another daemon answers on it. */
  async listen(): Promise<void> {
    const { paths } = this.opts;
    ensurePrivateSocket(paths);
    await withStartLock(paths.startLock, async () => {
      if (await socketAlive(paths.socket)) throw new BrowserAgentError('LAUNCH_FAILED', `A session daemon is already running on ${paths.socket}.`);
      if (process.platform !== 'win32') rmSync(paths.socket, { force: true }); // stale: nobody answers
      await this.browsers.adoptLeftovers();
      this.server = await listenPrivately(paths.socket, (socket) => this.accept(socket));
    });
    this.log(`Listening on ${paths.socket} (pid ${process.pid}, idle exit after ${this.idleMs} ms)`);
    this.checkIdle();
  }

  private accept(socket: Socket) {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    serveClient(socket, {
      open: (hello, s) => this.open(hello, s),
      control: (msg, session, send) => handleControl(this.controlTarget, msg, session, send),
      dropped: (session) => this.dropped(session),
    });
  }

  private readonly controlTarget: ControlTarget = {
    session: (id) => this.sessions.get(id),
    end: (s, reason) => this.end(s, reason),
    status: () => this.status(),
    relay: () => this.relay.start(),
    stop: (reason) => this.stop(reason),
  };

  /** A new session, or one resumed after its client's socket dropped. */
  private async open(msg: Hello, socket: Socket): Promise<DaemonSession> {
    clearTimeout(this.idleTimer);
    if (msg.resume) {
      const s = this.sessions.get(msg.resume);
      if (!s || s.ended) throw new BrowserAgentError('BROWSER_DISCONNECTED', `Session ${msg.resume} is over.`);
      s.socket?.destroy();
      s.attach(socket);
      s.send({ t: 'welcome', v: PROTOCOL_VERSION, daemonPid: process.pid, session: s.id, kind: s.kind, resumed: true });
      return s;
    }
    const spec = msg.browser!;
    const id = randomUUID();
    // A remote-browser engine gives each connection its own browser: one per session unless asked to share.
    const own = spec.mode === 'attach' && isBrowserPool(spec.endpoint) && spec.remoteBrowser !== 'shared';
    const browser = await this.browsers.open(spec, msg.cdpTimeoutMs, own ? id : undefined);
    const s = new DaemonSession(id, String(msg.client).slice(0, 200), Number(msg.pid) || 0, browser.hub, browser.key, browser.kind, msg.transport !== 'proxy' && spec.mode !== 'relay' && !browser.pool);
    this.sessions.set(s.id, s);
    // After a daemon restart: the tabs the client worked in, still open and nobody else's, stay its own.
    const rejoined = (Array.isArray(msg.rejoin?.tabs) ? msg.rejoin.tabs : []).filter((t) => typeof t === 'string' && browser.hub.targets.has(t) && !browser.hub.owner(t) && (!browser.claims || browser.claims.claim(t)) && browser.hub.claim(s, t));
    if (!rejoined.length && (browser.kind === 'launched' || spec.mode === 'relay' || (spec.mode === 'attach' && (spec.attachTab ?? 'existing') === 'existing'))) {
      // Launched: the first tab nobody owns; relay: the first shared tab nobody owns; an engine's browser: its
      // first page (it has no user, and a look of our own would cost a browser); attached: the page the user has open.
      if (browser.kind === 'launched' || spec.mode === 'relay' || browser.pool) browser.hub.claimFreePage(s);
      else await claimUserPage(browser, s);
    }
    s.attach(socket);
    s.send({ t: 'welcome', v: PROTOCOL_VERSION, daemonPid: process.pid, session: s.id, kind: browser.kind, endpoint: browser.endpoint, headless: browser.headless, tabs: browser.hub.tabsOf(s).map((t) => t.targetId) });
    this.log(`Session ${s.id} opened by ${s.client} (pid ${s.pid}) on ${browser.key}`);
    return s;
  }

  private dropped(s: DaemonSession) {
    s.detach();
    if (s.ended) return;
    // The client may be reconnecting; a client whose process died does not come back.
    const deadline = Date.now() + RESUME_GRACE_MS;
    const check = () => {
      if (s.socket || s.ended) return;
      if (Date.now() >= deadline || !processAlive(s.pid, true)) return void this.end(s, 'its client went away');
      s.graceTimer = setTimeout(check, 200);
    };
    s.graceTimer = setTimeout(check, 100);
  }

  async status(): Promise<DaemonStatus> {
    const relay = await this.relay.current();
    const browsers = this.browsers.all();
    await Promise.all(browsers.map((b) => b.hub.refresh().catch((e) => ignore(e, 'a browser that does not answer shows its last known state'))));
    const counts = new Map<string, number>();
    for (const s of this.sessions.values()) counts.set(s.browserKey, (counts.get(s.browserKey) ?? 0) + 1);
    return {
      pid: process.pid,
      version: PROTOCOL_VERSION,
      socket: this.opts.paths.socket,
      startedAt: this.startedAt,
      idleExitMs: this.idleMs,
      browsers: browsers.map((b) => ({ key: b.key, kind: b.kind, endpoint: redactEndpoint(b.endpoint), pid: b.launched?.pid, headless: b.headless, sessions: counts.get(b.key) ?? 0 })),
      sessions: [...this.sessions.values()].map((s) => s.info()),
      relay: relay ? { port: relay.port, connected: relay.connected, sharedTabs: relay.tabs.length } : undefined,
    };
  }

  /** Ends a session: tabs closed in a launched browser, left open in an attached one. */
  async end(s: DaemonSession, reason: string): Promise<void> {
    if (s.ended) return;
    s.ended = true;
    clearTimeout(s.graceTimer);
    this.sessions.delete(s.id);
    this.log(`Session ${s.id} (${s.client}) ended: ${reason}`);
    const browser = this.browsers.ofHub(s.hub);
    if (browser?.pool && ![...this.sessions.values()].some((o) => o.hub === s.hub)) this.browsers.closePool(browser);
    else {
      for (const t of s.hub.tabsOf(s)) browser?.claims?.release(t.targetId);
      // A launched or an engine's browser has no user: the tabs a session leaves are closed.
      await s.hub.release(s, s.kind === 'launched' || !!browser?.pool);
    }
    s.send({ t: 'gone', reason });
    s.socket?.end();
    this.checkIdle();
  }

  /** The browser crashed or the connection dropped: every session on it ends; clients start over. */
  private async browserGone(b: Browser) {
    if (this.stopping) return;
    this.log(`Browser ${b.key} disconnected.`);
    const reason = b.pool ? 'its remote browser closed the connection (the engine ended its session: a time limit, a kill or a restart; or the network dropped), and with it its pages; the next call opens a new remote browser' : 'browser disconnected';
    for (const s of [...this.sessions.values()]) if (s.hub === b.hub) await this.end(s, reason);
  }

  private checkIdle() {
    clearTimeout(this.idleTimer);
    if (this.sessions.size > 0 || this.browsers.startingCount > 0 || this.stopping) return;
    // Relay mode with the Chrome extension connected: the user's Chrome waits for an agent.
    if (this.relay.connected) return;
    // Relay mode just turned on: give the user time to paste the pairing code into the extension.
    const ms = this.relay.on ? Math.max(this.idleMs, RELAY_IDLE_MS) : this.idleMs;
    this.idleTimer = setTimeout(() => void this.stop(`idle for ${ms} ms`), ms);
    this.idleTimer.unref?.();
  }

  /** Ends every session, closes launched browsers (attached ones are only detached), removes the socket. */
  stop(reason: string): Promise<void> {
    this.stopping ??= (async () => {
      this.log(`Stopping: ${reason}`);
      clearTimeout(this.idleTimer);
      for (const s of [...this.sessions.values()]) {
        s.ended = true;
        this.sessions.delete(s.id);
        s.send({ t: 'gone', reason: `the session daemon stopped (${reason})` });
        s.socket?.end();
      }
      const closed = new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
      for (const socket of this.sockets) socket.destroySoon();
      setTimeout(() => this.sockets.forEach((socket) => socket.destroy()), 1000).unref();
      await closed;
      await this.browsers.closeAll();
      if (process.platform !== 'win32') {
        try {
          unlinkSync(this.opts.paths.socket);
        } catch (e) {
          ignore(e, 'already gone');
        }
      }
      this.records.remove();
      await this.relay.close();
      this.resolveStopped();
    })();
    return this.stopping;
  }
}
