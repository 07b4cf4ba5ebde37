import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { join } from 'node:path';
import { BrowserAgentError } from '../base/errors';
import { isBrowserPool } from '../session/remoteEngines';
import { sleep } from '../session/launcher';
import type { CdpTransport } from '../session/transport';
import { daemonPaths, ensurePrivateDir, ensurePrivateSocket, type DaemonPaths } from './paths';
import { isControl, LineReader, PROTOCOL_VERSION, type BrowserSpec, type ClientMessage, type DaemonMessage, type DaemonStatus, type RelayStatus } from './protocol';
import { ignore } from '../base/ignore';

export interface DaemonClientOptions {
  paths?: DaemonPaths;
  /** The daemon's script (dist/daemon.js); default: next to this bundle, or $BROWSER_AGENT_DAEMON_SCRIPT. */
  script?: string;
  /** Start the daemon when none answers (default true). */
  spawn?: boolean;
  /** How long to wait for a daemon we started to answer. */
  startTimeoutMs?: number;
}

export function defaultDaemonScript(): string {
  return process.env.BROWSER_AGENT_DAEMON_SCRIPT || join(__dirname, 'daemon.js');
}

function connectSocket(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = createConnection(path);
    s.once('connect', () => {
      s.off('error', reject);
      resolve(s);
    });
    s.once('error', reject);
  });
}

/** Starts `browser-agent-daemon run` detached, its output appended to daemon.log. */
export function spawnDaemon(paths: DaemonPaths, script = defaultDaemonScript()): void {
  if (!existsSync(script)) throw new BrowserAgentError('LAUNCH_FAILED', `The session daemon script ${script} is missing.`, 'Rebuild (npm run build), or run without the daemon (--no-daemon / browserAgent.connection.shared off).');
  ensurePrivateDir(paths.dir);
  const log = openSync(paths.log, 'a', 0o600);
  try {
    const child = spawn(process.execPath, [script, 'run'], {
      detached: true,
      stdio: ['ignore', log, log],
      // In the VS Code extension host process.execPath is Electron: run it as plain Node.
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', BROWSER_AGENT_DAEMON_DIR: paths.dir },
      windowsHide: true,
    });
    child.unref();
  } finally {
    closeSync(log);
  }
}

/** A connected socket to the daemon, starting one when none answers. */
export async function connectDaemon(opts: DaemonClientOptions = {}): Promise<Socket> {
  const paths = opts.paths ?? daemonPaths();
  ensurePrivateSocket(paths);
  try {
    return await connectSocket(paths.socket);
  } catch (e) {
    if (opts.spawn === false) throw new BrowserAgentError('BROWSER_DISCONNECTED', `No session daemon is running (${paths.socket}).`, 'Start one with `browser-agent-daemon start`.');
    void e;
  }
  spawnDaemon(paths, opts.script);
  const deadline = Date.now() + (opts.startTimeoutMs ?? 15_000);
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      return await connectSocket(paths.socket);
    } catch (e) {
      last = e;
      await sleep(50);
    }
  }
  throw new BrowserAgentError('LAUNCH_FAILED', `The session daemon did not start: ${(last as Error)?.message ?? 'no answer'}.`, `See ${paths.log}.`);
}

/** Sends `hello` and waits for `welcome` (or the daemon's error). */
function handshake(socket: Socket, hello: Extract<ClientMessage, { t: 'hello' }>, timeoutMs: number): Promise<{ welcome: Extract<DaemonMessage, { t: 'welcome' }>; reader: (fn: (line: string) => void) => void; rest: string[] }> {
  return new Promise((resolve, reject) => {
    socket.setEncoding('utf8');
    let handler: ((line: string) => void) | undefined;
    const early: string[] = [];
    let welcomed = false;
    const fail = (e: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(e);
    };
    const timer = setTimeout(() => fail(new BrowserAgentError('TIMEOUT', `The session daemon did not answer within ${timeoutMs} ms.`)), timeoutMs);
    const reader = new LineReader((line) => {
      if (welcomed) return handler ? handler(line) : void early.push(line);
      let msg: DaemonMessage;
      try {
        msg = JSON.parse(line);
      } catch {
        return;
      }
      if (msg.t === 'error') return fail(new BrowserAgentError((msg.code as never) ?? 'LAUNCH_FAILED', msg.message, msg.hint));
      if (msg.t !== 'welcome') return;
      welcomed = true;
      clearTimeout(timer);
      resolve({ welcome: msg, reader: (fn) => ((handler = fn), early.splice(0).forEach(fn)), rest: early });
    });
    socket.on('data', (d: string) => reader.push(d));
    socket.once('close', () => !welcomed && fail(Object.assign(new BrowserAgentError('BROWSER_DISCONNECTED', 'The session daemon closed the connection.'), { daemonClosed: true })));
    socket.on('error', () => {});
    socket.write(`${JSON.stringify(hello)}\n`);
  });
}

/** Asks the daemon to end this socket's session, waits briefly for it to close the socket, then drops it. */
async function sendEnd(socket: Socket, timeoutMs: number): Promise<void> {
  const done = new Promise<void>((r) => {
    socket.once('close', () => r());
    setTimeout(r, timeoutMs).unref();
  });
  socket.write(`${JSON.stringify({ t: 'end' })}\n`);
  await done;
  socket.destroy();
}

/**
 * Connects and says hello; a daemon that closes the socket before its welcome was stopping (its idle exit
 * raced with this client): the next attempt finds it gone and starts a new one.
 */
async function helloWithRetry(opts: DaemonClientOptions, hello: Extract<ClientMessage, { t: 'hello' }>, timeoutMs: number) {
  for (let attempt = 0; ; attempt++) {
    const socket = await connectDaemon(opts);
    try {
      return { socket, ...(await handshake(socket, hello, timeoutMs)) };
    } catch (e) {
      if (!(e as { daemonClosed?: boolean }).daemonClosed || attempt >= 2) throw e;
      await sleep(200 * (attempt + 1));
    }
  }
}

const REQUEST_ID = /^\{"id":(\d+)/;

export interface DaemonSessionInfo {
  session: string;
  kind: 'launched' | 'attached';
  endpoint: string;
  headless: boolean;
  daemonPid: number;
}

/**
 * A CDP transport to the daemon: one session, one socket. A dropped socket is resumed once (same
 * session, unanswered requests re-sent: the daemon answers each once); if the daemon is gone the
 * transport closes with a reason the failing calls carry.
 */
export class DaemonTransport implements CdpTransport {
  onmessage?: (text: string) => void;
  onclose?: () => void;
  closeReason?: string;
  private readonly unanswered = new Map<number, string>();
  private closed = false;
  private ending = false;

  private constructor(
    private socket: Socket,
    readonly info: DaemonSessionInfo & { tabs: string[] },
    private readonly opts: DaemonClientOptions & { client: string; browser: BrowserSpec },
  ) {}

  static async open(opts: DaemonClientOptions & { client: string; browser: BrowserSpec; cdpTimeoutMs?: number; timeoutMs?: number; rejoin?: string[] }): Promise<DaemonTransport> {
    const hello: Extract<ClientMessage, { t: 'hello' }> = { t: 'hello', v: PROTOCOL_VERSION, client: opts.client, pid: process.pid, browser: opts.browser, cdpTimeoutMs: opts.cdpTimeoutMs, transport: 'proxy', rejoin: opts.rejoin ? { tabs: opts.rejoin } : undefined };
    // Launching a browser can take a while on a busy machine.
    const { socket, welcome, reader } = await helloWithRetry(opts, hello, opts.timeoutMs ?? 60_000);
    const t = new DaemonTransport(socket, { session: welcome.session!, kind: welcome.kind!, endpoint: welcome.endpoint ?? '', headless: !!welcome.headless, daemonPid: welcome.daemonPid, tabs: welcome.tabs ?? [] }, opts);
    t.wire(socket, reader);
    return t;
  }

  private wire(socket: Socket, reader: (fn: (line: string) => void) => void) {
    this.socket = socket;
    reader((line) => {
      if (isControl(line)) return this.control(line);
      if (line.charCodeAt(2) === 105 /* i of "id" */) {
        const m = REQUEST_ID.exec(line);
        if (m) this.unanswered.delete(Number(m[1]));
      }
      this.onmessage?.(line);
    });
    socket.once('close', () => {
      if (this.socket === socket) void this.lost();
    });
  }

  private control(line: string) {
    const msg = JSON.parse(line) as DaemonMessage;
    if (msg.t === 'gone') this.closeReason = `The session daemon ended this session: ${msg.reason}.`;
  }

  send(text: string): void {
    if (this.closed) throw new BrowserAgentError('BROWSER_DISCONNECTED', this.closeReason ?? 'The session daemon connection is closed.');
    const m = REQUEST_ID.exec(text);
    if (m) this.unanswered.set(Number(m[1]), text);
    this.socket.write(`${text}\n`);
  }

  /** The socket dropped: resume the session if the daemon still has it, else close. */
  private async lost() {
    if (this.closed) return;
    if (!this.ending && !this.closeReason) {
      try {
        const socket = await connectDaemon({ ...this.opts, spawn: false });
        const { welcome, reader } = await handshake(socket, { t: 'hello', v: PROTOCOL_VERSION, client: this.opts.client, pid: process.pid, resume: this.info.session }, 5000);
        if (welcome.resumed) {
          this.wire(socket, reader);
          for (const text of this.unanswered.values()) socket.write(`${text}\n`);
          return;
        }
        socket.destroy();
      } catch (e) {
        ignore(e, 'the daemon is gone');
      }
      // A browser we attached to outlives the daemon (a launched one and an engine's go with it).
      const livesOn = this.info.kind === 'attached' && this.opts.browser.mode === 'attach' && !isBrowserPool(this.opts.browser.endpoint);
      this.closeReason ??= livesOn
        ? 'The session daemon exited; the next call registers with a new one and goes on in the tabs this session worked in (refs taken before are stale).'
        : 'The session daemon exited; the next call starts a new one (the page this session had open is gone).';
    }
    this.finish();
  }

  private finish() {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  /** Ends the session (tabs closed in a launched browser) and waits briefly for the daemon to confirm. */
  async end(timeoutMs = 5000): Promise<void> {
    if (this.closed) return;
    this.ending = true;
    await sendEnd(this.socket, timeoutMs);
    this.finish();
  }

  close(): void {
    if (this.closed) return;
    this.ending = true;
    this.socket.destroy();
    this.finish();
  }
}

/** A control connection for status, ending and focusing sessions, and stopping the daemon. */
export async function daemonControl<T extends 'status' | 'endSession' | 'focus' | 'shutdown' | 'relay'>(
  t: T,
  args: T extends 'endSession' | 'focus' ? { session: string } : object = {} as never,
  opts: DaemonClientOptions = {},
): Promise<T extends 'status' ? DaemonStatus : T extends 'relay' ? RelayStatus : boolean> {
  const socket = await connectDaemon({ spawn: false, ...opts });
  try {
    const { reader } = await handshake(socket, { t: 'hello', v: PROTOCOL_VERSION, client: 'control', pid: process.pid }, 5000);
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new BrowserAgentError('TIMEOUT', `The session daemon did not answer ${t}.`)), 10_000);
      reader((line) => {
        const msg = JSON.parse(line) as DaemonMessage;
        if (msg.t === 'error' && msg.rid === 1) {
          clearTimeout(timer);
          reject(new BrowserAgentError((msg.code as never) ?? 'CDP_ERROR', msg.message));
        } else if (msg.t === 'result' && msg.rid === 1) {
          clearTimeout(timer);
          resolve((t === 'status' ? msg.status : t === 'relay' ? msg.relay : !!msg.ok) as never);
        }
      });
      socket.write(`${JSON.stringify({ t, rid: 1, ...args })}\n`);
    });
  } finally {
    socket.destroy();
  }
}

/**
 * A direct session's control link: the daemon keeps the registry (this client, its tabs) while the
 * client speaks CDP to the browser itself. If the daemon dies, the link re-registers with a new
 * one (started on demand), handing over the tabs this client works in; CDP traffic goes on meanwhile.
 */
export class DaemonLink {
  session: string;
  /** Tabs to hand over when re-registering after a daemon restart. */
  rejoinTabs: () => string[] = () => [];
  /** The daemon ended this session (ended from the Sessions view, browser gone, daemon stopped). */
  ongone?: (reason: string) => void;
  /** The daemon went away (killed): false from here stops re-registering (our browser went with it). */
  onlost?: () => boolean;
  /** Re-registered with a new daemon. */
  onrejoined?: () => void;
  private closed = false;
  private reconnecting?: Promise<void>;

  private constructor(
    private socket: Socket,
    readonly info: DaemonSessionInfo & { tabs: string[] },
    private readonly opts: DaemonClientOptions & { client: string; browser: BrowserSpec; cdpTimeoutMs?: number },
  ) {
    this.session = info.session;
  }

  static async open(opts: DaemonClientOptions & { client: string; browser: BrowserSpec; cdpTimeoutMs?: number; timeoutMs?: number; rejoin?: string[] }): Promise<DaemonLink> {
    const { socket, welcome, reader } = await DaemonLink.hello(opts, opts.rejoin, opts.timeoutMs ?? 60_000);
    const link = new DaemonLink(socket, { session: welcome.session!, kind: welcome.kind!, endpoint: welcome.endpoint ?? '', headless: !!welcome.headless, daemonPid: welcome.daemonPid, tabs: welcome.tabs ?? [] }, opts);
    link.wire(socket, reader);
    return link;
  }

  private static async hello(opts: DaemonClientOptions & { client: string; browser: BrowserSpec; cdpTimeoutMs?: number }, rejoin: string[] | undefined, timeoutMs: number) {
    return helloWithRetry(
      opts,
      { t: 'hello', v: PROTOCOL_VERSION, client: opts.client, pid: process.pid, browser: opts.browser, cdpTimeoutMs: opts.cdpTimeoutMs, transport: 'direct', rejoin: rejoin ? { tabs: rejoin } : undefined },
      timeoutMs,
    );
  }

  private wire(socket: Socket, reader: (fn: (line: string) => void) => void) {
    this.socket = socket;
    reader((line) => {
      const msg = JSON.parse(line) as DaemonMessage;
      if (msg.t === 'gone') {
        this.closed = true;
        this.ongone?.(msg.reason);
      }
    });
    socket.once('close', () => {
      if (this.socket === socket && !this.closed) this.reconnecting ??= this.rejoin().finally(() => (this.reconnecting = undefined));
    });
  }

  /** The daemon went away: register again with the next one (started if needed), same tabs. */
  private async rejoin() {
    if (this.onlost && !this.onlost()) return;
    // A browser the daemon launched is closed by its watchdog when the daemon dies: give that a moment.
    await sleep(500);
    for (let attempt = 0; attempt < 3 && !this.closed; attempt++) {
      if (this.onlost && !this.onlost()) return;
      try {
        const { socket, welcome, reader } = await DaemonLink.hello(this.opts, this.rejoinTabs(), 30_000);
        if (this.closed) return void socket.destroy();
        this.session = welcome.session!;
        this.wire(socket, reader);
        this.onrejoined?.();
        return;
      } catch {
        await sleep(300 * (attempt + 1));
      }
    }
  }

  /** A tab this client opened. */
  own(targetId: string): void {
    if (!this.closed) this.socket.write(`${JSON.stringify({ t: 'own', targetId })}\n`);
  }

  /** Ends the session: the daemon closes its tabs in a launched browser; waits briefly for that. */
  async end(timeoutMs = 5000): Promise<void> {
    await this.reconnecting;
    if (this.closed) return;
    this.closed = true;
    await sendEnd(this.socket, timeoutMs);
  }

  close(): void {
    this.closed = true;
    this.socket.destroy();
  }
}
