import { createHash, randomUUID } from 'node:crypto';
import { chmodSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { BrowserAgentError, errorMessage, isAgentError } from '../base/errors';
import { resolveEndpoint } from '../session/endpoints';
import { groupAlive, launchBrowser, sleep, type LaunchedBrowser } from '../session/launcher';
import { TabClaims } from '../session/tabClaims';
import { connectWebSocket } from '../session/transport';
import { isBrowserPool, redactEndpoint } from '../session/remoteEngines';
import { BrowserHub } from './hub';
import { hubAnswers } from './browserCheck';
import { withStartLock } from './startLock';
import { ensurePrivateSocket, type DaemonPaths } from './paths';
import { isControl, LineReader, PROTOCOL_VERSION, type BrowserSpec, type ClientMessage, type DaemonMessage, type DaemonStatus } from './protocol';
import { DaemonSession } from './session';
import { claimUserPage } from './userPage';
import { RelayTransport } from '../session/relayTransport';
import { readPairing } from './relayPairing';
import { RelayServer } from './relayServer';

/** How long a client asking for the relay waits for the Chrome extension to connect. */
const RELAY_CONNECT_MS = Number(process.env.BROWSER_AGENT_RELAY_CONNECT_MS) || 15_000;
/** Relay mode on, the extension not (yet) connected: how long the daemon waits for it when idle. */
const RELAY_IDLE_MS = 10 * 60_000;

export const DEFAULT_IDLE_MS = 60_000;
/** Longest line a client may send (a CDP command carries at most the MCP server's 4 MB input). */
export const MAX_CLIENT_LINE = 32 * 1024 * 1024;
/** How long a session whose socket dropped waits for its client to resume it. */
const RESUME_GRACE_MS = 10_000;

export interface DaemonOptions {
  paths: DaemonPaths;
  /** Exit after this long without a session (default 60 s; BROWSER_AGENT_DAEMON_IDLE_MS). */
  idleMs?: number;
  log?: (line: string) => void;
}

/** A browser this daemon (or a killed predecessor it adopted) launched. */
type Launched = Pick<LaunchedBrowser, 'pid' | 'wsEndpoint' | 'userDataDir' | 'temporaryProfile' | 'kill'> & { headless: boolean; key?: string };

interface Browser {
  key: string;
  kind: 'launched' | 'attached';
  endpoint: string;
  headless: boolean;
  hub: BrowserHub;
  launched?: Launched;
  /** Attached: the handshake headers (remote fleets) and the tab claims shared with --no-daemon servers. */
  headers?: Record<string, string>;
  claims?: TabClaims;
  /** A remote-browser engine's browser, made for this daemon's connection: closed with its last session. */
  pool?: boolean;
}

/** What browsers.json keeps of each launched browser, so a successor can adopt or close it. */
type LaunchRecord = Pick<Launched, 'pid' | 'wsEndpoint' | 'userDataDir' | 'temporaryProfile' | 'headless' | 'key'>;

function ownsProfile(r: LaunchRecord): boolean {
  try {
    return readFileSync(`/proc/${r.pid}/cmdline`, 'utf8').includes(`--user-data-dir=${r.userDataDir}`);
  } catch {
    return false;
  }
}

/** Kills a browser launched by a daemon that no longer runs (not our child: no exit event). */
function adopted(r: LaunchRecord): Launched {
  return {
    ...r,
    async kill() {
      try {
        process.kill(-r.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      for (let i = 0; i < 60 && groupAlive(r.pid); i++) await sleep(50);
      try {
        process.kill(-r.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
      if (r.temporaryProfile) rmSync(r.userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}

/**
 * Sessions share a browser only when they ask for the same one: the same binary, profile and
 * headless mode (a client is never put in a browser other than the one its settings describe, and a
 * persistent profile's logins only reach clients that name that profile), or the same endpoint.
 */
export function browserKey(spec: BrowserSpec): string {
  if (spec.mode === 'relay') return 'relay';
  if (spec.mode === 'attach') {
    // Shown in status and logs, so without the token; two tokens (or header sets) are two browsers all the same.
    const shown = redactEndpoint(spec.endpoint);
    const secret = shown !== spec.endpoint || Object.keys(spec.headers ?? {}).length > 0;
    return `attach ${shown}${secret ? ` #${createHash('sha256').update(JSON.stringify([spec.endpoint, spec.headers ?? {}])).digest('hex').slice(0, 8)}` : ''}`;
  }
  const l = spec.launch;
  return `launch ${l.headless ? 'headless' : 'headed'}${l.userDataDir ? ` profile=${l.userDataDir}` : ''}${l.executablePath ? ` exe=${l.executablePath}` : ''}`;
}

/** True when something answers on the socket. */
export function socketAlive(path: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection(path);
    const done = (v: boolean) => {
      clearTimeout(t);
      s.destroy();
      resolve(v);
    };
    const t = setTimeout(() => done(false), timeoutMs);
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

function processAlive(pid: number): boolean {
  if (!(pid > 0)) return true; // unknown: wait for the grace period
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The per-user session daemon: owns the browser connections, gives each client its own session
 * and tabs, and exits after `idleMs` without a session, closing what it launched.
 */
export class Daemon {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private readonly sessions = new Map<string, DaemonSession>();
  private readonly browsers = new Map<string, Browser>();
  private readonly starting = new Map<string, Promise<Browser>>();
  private idleTimer?: NodeJS.Timeout;
  private stopping?: Promise<void>;
  private relay?: Promise<RelayServer>;
  private relayViewTimer?: NodeJS.Timeout;
  private relayConnected = false;
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
  }

  /** Binds the socket, or fails with `already running` when another daemon answers on it. */
  async listen(): Promise<void> {
    const { paths } = this.opts;
    ensurePrivateSocket(paths);
    await withStartLock(paths.startLock, async () => {
      if (await socketAlive(paths.socket)) throw new BrowserAgentError('LAUNCH_FAILED', `A session daemon is already running on ${paths.socket}.`);
      if (process.platform !== 'win32') rmSync(paths.socket, { force: true }); // stale: nobody answers
      await this.adoptLeftovers();
      const server = createServer((socket) => this.accept(socket));
      const oldMask = process.umask(0o077);
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(paths.socket, () => resolve());
        });
      } finally {
        process.umask(oldMask);
      }
      if (process.platform !== 'win32') chmodSync(paths.socket, 0o600);
      this.server = server;
    });
    this.log(`Listening on ${paths.socket} (pid ${process.pid}, idle exit after ${this.idleMs} ms)`);
    this.checkIdle();
  }

  private accept(socket: Socket) {
    this.sockets.add(socket);
    socket.setEncoding('utf8');
    let session: DaemonSession | undefined;
    let hello = false;
    const helloTimer = setTimeout(() => !hello && socket.destroy(), 5000);
    const send = (msg: DaemonMessage) => !socket.destroyed && socket.write(`${JSON.stringify(msg)}\n`);
    const reader = new LineReader((line) => {
      if (session && !isControl(line)) return session.direct ? undefined : session.request(line);
      let msg: ClientMessage;
      try {
        msg = JSON.parse(line);
      } catch {
        return;
      }
      if (!hello) {
        if (msg.t !== 'hello') return socket.destroy();
        hello = true;
        clearTimeout(helloTimer);
        if (msg.v !== PROTOCOL_VERSION) {
          send({ t: 'error', code: 'VERSION_MISMATCH', message: `The running session daemon speaks protocol ${PROTOCOL_VERSION}, this client ${msg.v}.`, hint: 'Stop it with `browser-agent-daemon stop` (or wait for it to exit when idle).' });
          return void socket.end();
        }
        if (!msg.browser && !msg.resume) return void send({ t: 'welcome', v: PROTOCOL_VERSION, daemonPid: process.pid });
        socket.pause();
        this.open(msg, socket).then(
          (s) => {
            session = s;
            socket.resume();
          },
          (e) => {
            send({ t: 'error', code: isAgentError(e) ? e.code : 'LAUNCH_FAILED', message: errorMessage(e), hint: isAgentError(e) ? e.hint : undefined });
            socket.end();
          },
        );
        return;
      }
      void this.control(msg, session, send);
    }, MAX_CLIENT_LINE, (head) => {
      // Far larger than any CDP command a client sends: answered with an error, never held whole.
      const id = /^\{"id":(\d+)/.exec(head)?.[1];
      const message = `A message of more than ${MAX_CLIENT_LINE} characters was refused by the session daemon.`;
      if (session && id && !session.direct) session.deliver(JSON.stringify({ id: Number(id), error: { code: -32600, message } }));
      else send({ t: 'error', code: 'INVALID_INPUT', message });
    });
    socket.on('data', (d: string) => reader.push(d));
    socket.on('error', () => {});
    socket.on('close', () => {
      this.sockets.delete(socket);
      clearTimeout(helloTimer);
      if (session && session.socket === socket) this.dropped(session);
    });
  }

  /** A new session, or one resumed after its client's socket dropped. */
  private async open(msg: Extract<ClientMessage, { t: 'hello' }>, socket: Socket): Promise<DaemonSession> {
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
    const browser = await this.browser(spec, msg.cdpTimeoutMs, own ? id : undefined);
    const s = new DaemonSession(id, String(msg.client).slice(0, 200), Number(msg.pid) || 0, browser.hub, browser.key, browser.kind, msg.transport !== 'proxy' && spec.mode !== 'relay' && !browser.pool);
    this.sessions.set(s.id, s);
    if (msg.rejoin?.tabs?.length) {
      for (const t of msg.rejoin.tabs) browser.hub.claim(s, t);
    } else if (browser.kind === 'launched' || spec.mode === 'relay' || (spec.mode === 'attach' && (spec.attachTab ?? 'existing') === 'existing')) {
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
      if (Date.now() >= deadline || !processAlive(s.pid)) return void this.end(s, 'its client went away');
      s.graceTimer = setTimeout(check, 200);
    };
    s.graceTimer = setTimeout(check, 100);
  }

  private async control(msg: ClientMessage, session: DaemonSession | undefined, send: (m: DaemonMessage) => void) {
    try {
      switch (msg.t) {
        case 'end':
          if (session) await this.end(session, 'ended by its client');
          return;
        case 'own':
          if (session?.direct && typeof msg.targetId === 'string') session.hub.claim(session, msg.targetId);
          return;
        case 'status':
          return send({ t: 'result', rid: msg.rid, status: await this.status() });
        case 'endSession': {
          const s = this.sessions.get(msg.session);
          if (!s) throw new BrowserAgentError('INVALID_INPUT', `No session ${msg.session}.`);
          await this.end(s, 'ended from the Sessions view');
          return send({ t: 'result', rid: msg.rid, ok: true });
        }
        case 'focus': {
          const s = this.sessions.get(msg.session);
          if (!s) throw new BrowserAgentError('INVALID_INPUT', `No session ${msg.session}.`);
          const target = s.activeTarget && s.hub.targets.has(s.activeTarget) ? s.activeTarget : s.hub.tabsOf(s)[0]?.targetId;
          if (!target) throw new BrowserAgentError('TAB_CLOSED', 'The session has no tab open.');
          await s.hub.call('Target.activateTarget', { targetId: target }, undefined, 5000);
          return send({ t: 'result', rid: msg.rid, ok: true });
        }
        case 'relay': {
          const relay = await this.relayOn();
          // Pairing again with "New Code": the extension still connected with the old token is let go.
          const dropped = relay.dropRevoked();
          return send({ t: 'result', rid: msg.rid, ok: true, relay: { port: relay.port, connected: relay.connected && !dropped, sharedTabs: relay.tabs.length } });
        }
        case 'shutdown':
          send({ t: 'result', rid: msg.rid, ok: true });
          return void this.stop('asked to stop');
      }
    } catch (e) {
      send({ t: 'error', rid: (msg as { rid?: number }).rid, code: isAgentError(e) ? e.code : 'CDP_ERROR', message: errorMessage(e) });
    }
  }

  async status(): Promise<DaemonStatus> {
    const relay = await this.relay?.catch(() => undefined);
    await Promise.all([...this.browsers.values()].map((b) => b.hub.refresh().catch(() => {})));
    const counts = new Map<string, number>();
    for (const s of this.sessions.values()) counts.set(s.browserKey, (counts.get(s.browserKey) ?? 0) + 1);
    return {
      pid: process.pid,
      version: PROTOCOL_VERSION,
      socket: this.opts.paths.socket,
      startedAt: this.startedAt,
      idleExitMs: this.idleMs,
      browsers: [...this.browsers.values()].map((b) => ({ key: b.key, kind: b.kind, endpoint: redactEndpoint(b.endpoint), pid: b.launched?.pid, headless: b.headless, sessions: counts.get(b.key) ?? 0 })),
      sessions: [...this.sessions.values()].map((s) => s.info()),
      relay: relay ? { port: relay.port, connected: relay.connected, sharedTabs: relay.tabs.length } : undefined,
    };
  }

  /**
   * Relay mode: the endpoint for the companion Chrome extension, on 127.0.0.1 only, opened when a
   * client asks for it (a relay session, "Pair Chrome Extension") and only once paired.
   */
  relayOn(): Promise<RelayServer> {
    this.relay ??= (async () => {
      const pairing = readPairing();
      if (!pairing) throw new BrowserAgentError('ATTACH_FAILED', 'The Chrome extension is not paired.', 'Run "Browser Agent: Pair Chrome Extension" in VS Code (or `browser-agent-daemon pair`) and paste the code into the extension.');
      // The token is read at each connection: `pair --renew` takes effect without a restart.
      const relay = new RelayServer({ port: pairing.port, get token() { return readPairing()?.token ?? ''; } }, this.log);
      await relay.listen();
      relay.onstop = (id) => {
        const s = this.sessions.get(id);
        if (s) s.hub.interrupt(s, 'Stopped by the user from the Browser Agent Chrome extension.');
      };
      queueMicrotask(() => this.checkIdle());
      relay.onconnect = () => {
        this.relayConnected = true;
        clearTimeout(this.idleTimer);
        void this.pushRelayView();
      };
      relay.ondisconnect = () => {
        this.relayConnected = false;
        this.checkIdle();
      };
      this.relayViewTimer = setInterval(() => this.pushRelayView(), 1000);
      this.relayViewTimer.unref?.();
      return relay;
    })();
    this.relay.catch(() => (this.relay = undefined));
    return this.relay;
  }

  /** The side panel's view: sessions on the relay, their tabs and current step. */
  private async pushRelayView() {
    const relay = await this.relay?.catch(() => undefined);
    if (!relay?.connected) return;
    const b = this.browsers.get('relay');
    const tabIds = new Map(relay.tabs.map((t) => [t.targetId, t.tabId]));
    relay.sessions(
      [...this.sessions.values()]
        .filter((s) => b && s.hub === b.hub)
        .map((s) => ({ id: s.id, client: s.client, tabs: s.hub.tabsOf(s).map((t) => tabIds.get(t.targetId)).filter((x): x is number => x !== undefined), step: s.hub.currentStep(s) })),
    );
  }

  /** Ends a session: tabs closed in a launched browser, left open in an attached one. */
  async end(s: DaemonSession, reason: string): Promise<void> {
    if (s.ended) return;
    s.ended = true;
    clearTimeout(s.graceTimer);
    this.sessions.delete(s.id);
    this.log(`Session ${s.id} (${s.client}) ended: ${reason}`);
    const browser = [...this.browsers.values()].find((b) => b.hub === s.hub);
    if (browser?.pool && ![...this.sessions.values()].some((o) => o.hub === s.hub)) this.closePoolBrowser(browser);
    else {
      for (const t of s.hub.tabsOf(s)) browser?.claims?.release(t.targetId);
      // A launched or an engine's browser has no user: the tabs a session leaves are closed.
      await s.hub.release(s, s.kind === 'launched' || !!browser?.pool);
    }
    s.send({ t: 'gone', reason });
    s.socket?.end();
    this.checkIdle();
  }

  /**
   * An engine's browser whose last session ended: its connection is closed, so the engine frees the browser
   * and the pool slot at once (not when the daemon exits).
   */
  private closePoolBrowser(b: Browser) {
    if (this.browsers.get(b.key) === b) this.browsers.delete(b.key);
    b.hub.onclose = undefined;
    b.hub.close();
    this.log(`Closed the connection to ${b.key}: its last session ended.`);
  }

  /** The shared browser for a spec: launched or attached once, whoever asks first; `ownerSession`: one of that session's own. */
  private async browser(spec: BrowserSpec, cdpTimeoutMs?: number, ownerSession?: string): Promise<Browser> {
    const key = ownerSession ? `${browserKey(spec)} session ${ownerSession}` : browserKey(spec);
    const live = this.browsers.get(key);
    if (live && !live.hub.isClosed) {
      if (await hubAnswers(live.hub)) return live;
      // Frozen, or its connection stalled: its sessions end, a browser we launched is killed, the next one starts.
      this.log(`Browser ${key} does not answer; ${live.launched ? 'closing it' : 'dropping the connection'}.`);
      live.hub.close();
      await live.launched?.kill().catch(() => {});
    }
    let p = this.starting.get(key);
    if (!p) {
      p = this.connect(key, spec, cdpTimeoutMs).finally(() => this.starting.delete(key));
      this.starting.set(key, p);
    }
    return p;
  }

  private async connect(key: string, spec: BrowserSpec, cdpTimeoutMs?: number): Promise<Browser> {
    let browser: Browser;
    if (spec.mode === 'launch') {
      this.log(`Launching ${spec.launch.executablePath ?? 'Chrome/Chromium'} (${spec.launch.headless ? 'headless' : 'headed'})`);
      const launched = { ...(await launchBrowser(spec.launch)), headless: !!spec.launch.headless, key };
      this.recordLaunched(launched, true);
      try {
        const transport = await connectWebSocket(launched.wsEndpoint);
        const hub = new BrowserHub(transport, cdpTimeoutMs);
        launched.process.once('exit', () => hub.close());
        await hub.init();
        browser = { key, kind: 'launched', endpoint: launched.wsEndpoint, headless: !!spec.launch.headless, hub, launched };
      } catch (e) {
        await launched.kill();
        this.recordLaunched(launched, false);
        throw e;
      }
    } else if (spec.mode === 'relay') {
      const relay = await this.relayOn();
      await relay.waitConnected(RELAY_CONNECT_MS);
      const hub = new BrowserHub(new RelayTransport(relay, cdpTimeoutMs), cdpTimeoutMs);
      try {
        await hub.init();
      } catch (e) {
        hub.close();
        throw e;
      }
      browser = { key, kind: 'attached', endpoint: `relay://127.0.0.1:${relay.port}`, headless: false, hub };
    } else {
      this.log(`Attaching to ${redactEndpoint(spec.endpoint)}`);
      const ws = await resolveEndpoint(spec.endpoint, spec.headers);
      const hub = new BrowserHub(await connectWebSocket(ws, { headers: spec.headers }), cdpTimeoutMs);
      try {
        await hub.init();
      } catch (e) {
        hub.close();
        throw e;
      }
      // An engine's browser is ours alone: no other server's claims to respect.
      const pool = isBrowserPool(ws);
      browser = { key, kind: 'attached', endpoint: ws, headless: false, hub, headers: spec.headers, claims: pool ? undefined : new TabClaims(ws), pool };
    }
    browser.hub.onclose = () => void this.browserGone(browser);
    this.browsers.set(key, browser);
    return browser;
  }

  /** The browser crashed or the connection dropped: every session on it ends; clients start over. */
  private async browserGone(b: Browser) {
    if (this.browsers.get(b.key) === b) this.browsers.delete(b.key);
    if (b.launched) {
      await b.launched.kill().catch(() => {});
      this.recordLaunched(b.launched, false);
    }
    if (this.stopping) return;
    this.log(`Browser ${b.key} disconnected.`);
    const reason = b.pool ? 'its remote browser closed the connection (the engine ended its session: a time limit, a kill or a restart; or the network dropped), and with it its pages; the next call opens a new remote browser' : 'browser disconnected';
    for (const s of [...this.sessions.values()]) if (s.hub === b.hub) await this.end(s, reason);
  }

  /**
   * A daemon that was killed leaves its browser running, with clients still working in it: adopt
   * it (they re-register and go on), or close it if it no longer answers.
   */
  private async adoptLeftovers() {
    let list: LaunchRecord[] = [];
    try {
      list = JSON.parse(readFileSync(this.opts.paths.browsers, 'utf8'));
    } catch {
      return;
    }
    for (const r of list) {
      const b = adopted(r);
      if (!ownsProfile(r)) {
        if (r.temporaryProfile) rmSync(r.userDataDir, { recursive: true, force: true });
        continue;
      }
      const key = r.key ?? browserKey({ mode: 'launch', launch: { headless: r.headless } });
      if (this.browsers.has(key)) {
        await b.kill();
        continue;
      }
      try {
        const hub = new BrowserHub(await connectWebSocket(r.wsEndpoint, { connectTimeoutMs: 3000 }));
        await hub.init();
        const browser: Browser = { key, kind: 'launched', endpoint: r.wsEndpoint, headless: r.headless, hub, launched: b };
        hub.onclose = () => void this.browserGone(browser);
        this.browsers.set(key, browser);
        this.recordLaunched(b, true);
        this.log(`Adopted browser pid ${r.pid} left by an earlier daemon.`);
      } catch {
        this.log(`Closing browser pid ${r.pid} left by an earlier daemon (it does not answer).`);
        await b.kill();
      }
    }
    if (!this.browsers.size) rmSync(this.opts.paths.browsers, { force: true });
  }

  private launchedList: LaunchRecord[] = [];
  private recordLaunched(b: Launched, live: boolean) {
    this.launchedList = this.launchedList.filter((x) => x.pid !== b.pid);
    if (live) this.launchedList.push({ pid: b.pid, wsEndpoint: b.wsEndpoint, userDataDir: b.userDataDir, temporaryProfile: b.temporaryProfile, headless: b.headless, key: b.key });
    try {
      writeFileSync(this.opts.paths.browsers, JSON.stringify(this.launchedList), { mode: 0o600 });
    } catch {
      /* best effort */
    }
  }

  private checkIdle() {
    clearTimeout(this.idleTimer);
    if (this.sessions.size > 0 || this.starting.size > 0 || this.stopping) return;
    // Relay mode with the Chrome extension connected: the user's Chrome waits for an agent.
    if (this.relayConnected) return;
    // Relay mode just turned on: give the user time to paste the pairing code into the extension.
    const ms = this.relay ? Math.max(this.idleMs, RELAY_IDLE_MS) : this.idleMs;
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
      for (const b of [...this.browsers.values()]) {
        this.browsers.delete(b.key);
        if (b.launched) {
          const asked = await b.hub.call('Browser.close', {}, undefined, 2000).then(() => true, () => false);
          b.hub.close();
          await b.launched.kill(asked ? 3000 : 0);
          this.recordLaunched(b.launched, false);
        } else {
          b.claims?.releaseAll();
          b.hub.close(); // never close a browser we only attached to
        }
      }
      if (process.platform !== 'win32') {
        try {
          unlinkSync(this.opts.paths.socket);
        } catch {
          /* already gone */
        }
      }
      rmSync(this.opts.paths.browsers, { force: true });
      clearInterval(this.relayViewTimer);
      await (await this.relay?.catch(() => undefined))?.close();
      this.resolveStopped();
    })();
    return this.stopping;
  }
}
