import { EventEmitter } from 'node:events';
import { BrowserAgentError, errorMessage, isAgentError } from '../base/errors';
import { attachedBrowserGone } from './lostBrowser';
import { BrowserSession } from './browserSession';
import type { LaunchOptions } from './launcher';
import { localProvider, type BrowserProvider } from './provider';
import type { RequestPolicy } from './requestRules';
import { redactEndpoint, type RemoteBrowserMode } from './remoteEngines';
import { ignore } from '../base/ignore';

export interface SessionSettings {
  /** What `ensure()` does when no browser is connected. */
  mode: 'launch' | 'attach';
  launch: LaunchOptions;
  attach?: { endpoint: string; headers?: Record<string, string> };
  cdpTimeoutMs?: number;
  attachTab?: 'existing' | 'new';
  /** A remote-browser engine (browserless, a hosted service): a browser per session, or one shared (through the daemon). */
  remoteBrowser?: RemoteBrowserMode;
  /**
   * Where browsers come from: this process (default) or the per-user session daemon, which shares
   * one browser among clients, each in its own tab.
   */
  provider?: BrowserProvider;
}

export type SessionStatus =
  | { state: 'none' }
  | { state: 'starting'; kind: 'launched' | 'attached' }
  | { state: 'connected'; kind: 'launched' | 'attached'; headless: boolean; tabTitle: string; tabUrl: string; tabs: number; shared?: boolean; /** Through the companion Chrome extension. */ relay?: boolean }
  | { state: 'disconnected'; reason: string; /** A launch or attach that failed with no browser left (not a lost connection). */ failed?: 'launched' | 'attached' };

/**
 * Why a session started: the first one, or in place of one that `disconnected` (crash, exit, lost
 * connection), was `closed` on purpose before, or was `restarted` while still live.
 */
export type StartReason = 'first' | 'disconnected' | 'closed' | 'restarted';
/** Emitted as `started` (session, info) after every successful launch or attach. */
export interface StartInfo {
  reason: StartReason;
  previous?: BrowserSession;
}

export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

function shuttingDown(): BrowserAgentError {
  return new BrowserAgentError('BROWSER_DISCONNECTED', 'Browser Agent is shutting down (its window closed or the extension was turned off): no browser is started.', 'Nothing to retry; the task ends here.');
}

const silent: Logger = { info() {}, warn() {}, error() {} };

/**
 * Owns at most one browser session. `ensure()` is what every tool calls: it returns the live
 * session, or replaces one that crashed or disconnected (relaunch in launch mode, reattach in
 * attach mode). Concurrent callers share one start-up.
 */
export class SessionManager extends EventEmitter {
  private session?: BrowserSession;
  /** The most recent session, kept after close so a later start can say what it replaced. */
  private last?: BrowserSession;
  private starting?: Promise<BrowserSession>;
  private _status: SessionStatus = { state: 'none' };
  /** The way the current/last session was made, reused when it has to be replaced. */
  private requestPolicy?: RequestPolicy;
  private lastMode?: { mode: 'launch' } | { mode: 'attach'; endpoint: string; headers?: Record<string, string> };
  private disposed = false;

  constructor(
    private readonly settings: () => SessionSettings,
    private readonly log: Logger = silent,
  ) {
    super();
  }

  get status(): SessionStatus {
    return this._status;
  }

  get current(): BrowserSession | undefined {
    return this.session?.connected ? this.session : undefined;
  }

  /**
   * Origin rules the browser enforces at the request (every target, before anything is sent),
   * for this session and the ones that replace it. Resolves once interception matches the rules
   * and pages showing a now-blocked origin have been left (landedPageCheck.ts).
   */
  async setRequestPolicy(policy: RequestPolicy | undefined): Promise<void> {
    this.requestPolicy = policy;
    const live = this.current ?? (await this.starting?.catch((e) => ignore(e, 'a failed start was reported to its caller; no session to apply it to')));
    await live?.applyPolicy(policy);
  }

  /** The live session, starting or replacing one as the settings say. */
  async ensure(): Promise<BrowserSession> {
    if (this.disposed) throw shuttingDown();
    if (this.session?.connected) return this.session;
    if (this.starting) return this.starting;
    const how = this.lastMode ?? (this.settings().mode === 'attach' && this.settings().attach?.endpoint
      ? { mode: 'attach' as const, endpoint: this.settings().attach!.endpoint, headers: this.settings().attach!.headers }
      : { mode: 'launch' as const });
    if (this.session && !this.session.connected) this.log.warn(`Browser was disconnected; ${how.mode === 'launch' ? 'relaunching' : 'reattaching'}.`);
    return how.mode === 'launch' ? this.launch() : this.attach(how.endpoint, how.headers);
  }

  launch(overrides: Partial<LaunchOptions> = {}): Promise<BrowserSession> {
    const s = this.settings();
    const opts = { ...s.launch, ...overrides };
    return this.start('launched', async () => {
      const provider = s.provider ?? localProvider;
      if (provider.name === 'local') this.log.info(`Launching ${opts.executablePath ?? 'Chrome/Chromium'} (${opts.headless ? 'headless' : 'headed'}, ${opts.userDataDir ? `profile ${opts.userDataDir}` : 'temporary profile'})`);
      else this.log.info(`Opening a session in the shared browser (${provider.name})`);
      const session = await BrowserSession.open(await provider.launch(opts, { cdpTimeoutMs: s.cdpTimeoutMs }), 'existing', this.requestPolicy);
      this.lastMode = { mode: 'launch' };
      this.log.info(session.sharedSessionId ? `Session ${session.sharedSessionId} in the shared browser at ${session.endpoint}` : `Launched pid ${session.pid} at ${session.endpoint}`);
      return session;
    }, opts.userDataDir);
  }

  attach(endpoint: string, headers?: Record<string, string>): Promise<BrowserSession> {
    const s = this.settings();
    // The connection to a browser that lives on was lost (the session daemon died): ask for our tabs back.
    // (`last`: an attempt that failed, say while the next daemon started, dropped `session` already.)
    const prev = this.session ?? this.last;
    const lost = prev && !prev.connected && prev.kind === 'attached' && !prev.pool ? prev.tabsAtLoss : undefined;
    return this.start('attached', async () => {
      this.log.info(`Attaching to ${redactEndpoint(endpoint)}`);
      const attachTab = s.attachTab ?? 'existing';
      const rejoin = lost?.tabs.length ? lost : undefined;
      const handle = await (s.provider ?? localProvider).attach(endpoint, { headers: headers ?? s.attach?.headers, cdpTimeoutMs: s.cdpTimeoutMs, attachTab, remoteBrowser: s.remoteBrowser, rejoin });
      const session = await BrowserSession.open(handle, attachTab, this.requestPolicy);
      this.lastMode = { mode: 'attach', endpoint, headers };
      this.log.info(`Attached to ${redactEndpoint(session.endpoint)}${session.pool ? ' (a remote-browser engine)' : ''}`);
      return session;
    });
  }

  /** Ends the session: kills a browser we launched, detaches from one we attached to. */
  async close(): Promise<void> {
    const s = this.session ?? (await this.starting?.catch((e) => ignore(e, 'a failed start left no session to close')));
    this.session = undefined;
    this.lastMode = undefined;
    if (s) {
      await s.close();
      this.log.info(
        s.pool
          ? 'Session ended; its engine closes the remote browser once no session uses it.'
          : s.sharedSessionId
            ? 'Session ended; the shared browser stays open for its other clients.'
            : s.kind === 'launched'
              ? 'Browser closed.'
              : 'Detached from browser (left running).',
      );
    }
    this.setStatus({ state: 'none' });
  }

  /**
   * For good (the extension host shutting down): closes the session, and nothing starts a browser
   * afterwards — a tool call still running in an agent loop would otherwise launch a new one.
   */
  async dispose(): Promise<void> {
    this.disposed = true;
    await this.close();
    this.removeAllListeners();
  }

  /**
   * Starts a new session. A running one is kept until the new one is connected, so a failed
   * launch or attach never leaves the person with nothing; only a launch into the same persistent
   * profile (which one browser at a time can open) has to close the old browser first.
   */
  private async start(kind: 'launched' | 'attached', make: () => Promise<BrowserSession>, profile?: string): Promise<BrowserSession> {
    if (this.disposed) throw shuttingDown();
    if (this.starting) await this.starting.catch((e) => ignore(e, 'a failed start was reported to its caller; this one starts anew'));
    const previous = this.session;
    // Why an earlier session (if any) is gone, for the 'started' event: the model must hear of it.
    const replaced = previous ?? this.last;
    const reason: StartReason = !replaced ? 'first' : !replaced.connected && previous ? 'disconnected' : previous ? 'restarted' : 'closed';
    if (previous && (!previous.connected || (kind === 'launched' && previous.kind === 'launched' && profile))) {
      this.session = undefined;
      await previous.close().catch((e) => ignore(e, 'the old session may be gone already; the new one starts'));
    }
    this.setStatus({ state: 'starting', kind });
    this.starting = make();
    try {
      const session = await this.starting;
      const old = this.session;
      this.session = session;
      this.last = session;
      this.wire(session);
      if (old && old !== session) await old.close().catch((e) => ignore(e, 'the replaced session may be gone already'));
      this.refreshStatus();
      this.emit('started', session, { reason, previous: replaced } satisfies StartInfo);
      return session;
    } catch (err) {
      // Reattaching after the browser we were attached to went away: say that, not first-time setup help
      // (an engine's refusal, such as a full pool, already says what to do).
      const e = kind === 'attached' && replaced?.kind === 'attached' && !replaced.connected && !replaced.pool && isAgentError(err, 'ATTACH_FAILED') ? attachedBrowserGone(replaced.endpoint, err) : err;
      this.log.error(`Could not start the browser session: ${errorMessage(e)}`);
      if (this.session?.connected) {
        this.log.info('The browser that was running is kept.');
        this.refreshStatus();
      } else this.setStatus({ state: 'disconnected', reason: errorMessage(e), failed: kind });
      throw e;
    } finally {
      this.starting = undefined;
    }
  }

  private wire(session: BrowserSession) {
    const refresh = () => this.session === session && this.refreshStatus();
    for (const ev of ['tabOpened', 'tabClosed', 'tabChanged', 'activeTabChanged']) session.on(ev, refresh);
    session.on('tabCrashed', (tab) => this.log.warn(`Tab crashed: ${tab.url}`));
    session.on('disconnected', () => {
      if (this.session !== session) return;
      this.log.warn(`The browser ${session.kind === 'launched' ? 'exited or crashed' : 'connection was lost'}; it will be ${session.kind === 'launched' ? 'relaunched' : 'reattached'} on next use.`);
      this.setStatus({ state: 'disconnected', reason: 'browser disconnected' });
      this.emit('disconnected', session);
    });
  }

  private refreshStatus() {
    const s = this.session;
    if (!s?.connected) return;
    const tabs = s.tabs();
    const active = tabs.find((t) => t.active);
    this.setStatus({ state: 'connected', kind: s.kind, headless: s.headless, tabTitle: active?.title ?? '', tabUrl: active?.url ?? '', tabs: tabs.length, ...(s.sharedSessionId ? { shared: true } : {}), ...(s.endpoint.startsWith('relay:') ? { relay: true } : {}) });
  }

  private setStatus(status: SessionStatus) {
    this._status = status;
    this.emit('status', status);
  }
}
