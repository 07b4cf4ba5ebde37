import { BrowserAgentError, isAgentError } from '../base/errors';
import { CdpConnection } from './cdp';
import { ATTACH_HELP, resolveEndpoint } from './endpoints';
import { launchBrowser, type LaunchOptions } from './launcher';
import { isBrowserPool, type RemoteBrowserMode } from './remoteEngines';
import type { TabScope } from './tabScope';

export type SessionKind = 'launched' | 'attached';

/**
 * A browser connection as a BrowserSession uses it, whoever made it: launched or attached here
 * (localProvider), through the per-user session daemon (src/daemon), or — later — through a
 * Chrome-extension relay. The connection may show only part of the browser: through the daemon it
 * shows only this client's tabs.
 */
export interface BrowserHandle {
  connection: CdpConnection;
  kind: SessionKind;
  /** Where the browser is, for logs and the status bar. */
  endpoint: string;
  headless: boolean;
  pid?: number;
  userDataDir?: string;
  /** A remote-browser engine's browser, made for this connection: when it goes, its pages go with it. */
  pool?: boolean;
  /** Through a daemon or relay: the session id it gave us. */
  sessionId?: string;
  /** In a browser shared with other clients: the tabs that are ours (others are never shown). */
  scope?: TabScope;
  /**
   * The tab to go on in: this session replaces one whose connection was lost (the session daemon died) and
   * the provider handed that session's tabs back (settings.rejoin), so the agent stays in its page.
   */
  resumeTab?: string;
  /** Told about every tab we open, so the owner of the shared browser knows it is ours. */
  onTabCreated?(targetId: string): void;
  /**
   * Ends our use of the browser: a browser launched for us alone is closed; an attached one only
   * detached from; a shared one (daemon) keeps running for its other clients, our tabs closed.
   */
  close(): Promise<void>;
}

export interface ConnectSettings {
  cdpTimeoutMs?: number;
  /** Attach mode: use the page already open (default) or always open our own tab. */
  attachTab?: 'existing' | 'new';
  headers?: Record<string, string>;
  /** A remote-browser engine: a browser per session (default) or one for every session of the daemon. */
  remoteBrowser?: RemoteBrowserMode;
  /**
   * Reattaching after the connection was lost: the tabs the lost session worked in (`active` last), to be
   * handed back where the provider decides who works where (the session daemon). Others ignore it.
   */
  rejoin?: { tabs: string[]; active?: string };
}

/** Makes browser connections. The one seam between the session layer and where browsers live. */
export interface BrowserProvider {
  /** For logs: "local", "daemon", "relay". */
  readonly name: string;
  launch(opts: LaunchOptions, settings: ConnectSettings): Promise<BrowserHandle>;
  attach(endpoint: string, settings: ConnectSettings): Promise<BrowserHandle>;
}

/** Launches and attaches in this process, over a WebSocket to the browser. */
export const localProvider: BrowserProvider = {
  name: 'local',
  async launch(opts, settings) {
    const browser = await launchBrowser(opts);
    try {
      const connection = await CdpConnection.connect(browser.wsEndpoint, { timeoutMs: settings.cdpTimeoutMs });
      browser.process.once('exit', () => connection.close());
      return {
        connection,
        kind: 'launched',
        endpoint: browser.wsEndpoint,
        headless: !!opts.headless,
        pid: browser.pid,
        userDataDir: browser.userDataDir,
        async close() {
          const asked = !connection.closed && (await connection.send('Browser.close', undefined, undefined, 2000).then(() => true, () => false));
          connection.close();
          await browser.kill(asked ? 3000 : 0);
        },
      };
    } catch (e) {
      await browser.kill();
      throw e;
    }
  },
  async attach(endpoint, settings) {
    const wsUrl = await resolveEndpoint(endpoint, settings.headers);
    let connection: CdpConnection;
    try {
      connection = await CdpConnection.connect(wsUrl, { headers: settings.headers, timeoutMs: settings.cdpTimeoutMs });
    } catch (e) {
      // An engine's refusal (token, full pool) carries its own fix; the rest is first-time attach help.
      throw isAgentError(e) && e.hint ? e : new BrowserAgentError('ATTACH_FAILED', (e as Error).message, ATTACH_HELP);
    }
    return { connection, kind: 'attached', endpoint: wsUrl, headless: false, pool: isBrowserPool(wsUrl), close: async () => connection.close() };
  },
};
