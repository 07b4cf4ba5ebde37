import { CdpConnection } from '../session/cdp';
import type { BrowserHandle, BrowserProvider, ConnectSettings } from '../session/provider';
import { TabScope } from '../session/tabScope';
import { RELAY_ENDPOINT } from '../session/relayProtocol';
import { resolveEndpoint } from '../session/endpoints';
import { isBrowserPool } from '../session/remoteEngines';
import { DaemonLink, DaemonTransport, type DaemonClientOptions } from './client';
import type { BrowserSpec } from './protocol';
import { ignore } from '../base/ignore';

export type DaemonTransportMode = 'direct' | 'proxy';

export interface DaemonProviderOptions extends DaemonClientOptions {
  /** Shown in `browser-agent-daemon status` and the Sessions view. */
  client: string | (() => string);
  /** Default: proxy for a browser we attach to, direct for one the daemon launches; $BROWSER_AGENT_DAEMON_TRANSPORT overrides. */
  transport?: DaemonTransportMode;
}

/**
 * Browsers through the per-user session daemon: one browser shared by every client, this client
 * seeing and driving only its own tabs. Tools, the safety policy, secrets and the audit log stay in
 * this process.
 *
 * direct (default for a launched browser): the daemon launches/attaches the browser and keeps the registry of sessions and tabs; we
 * speak CDP to the browser on a WebSocket of our own, so an action costs no extra process hop.
 * proxy (default for an attached one): every CDP message goes through the daemon's socket, which enforces the tab scope itself
 * (for browsers only the daemon can reach, such as a Chrome-extension relay, and for remote-browser
 * engines, where a connection of our own would cost a second browser and see another browser than the
 * daemon's).
 */
export function daemonProvider(opts: DaemonProviderOptions): BrowserProvider {
  const mode = (browser: BrowserSpec): DaemonTransportMode => {
    const forced = process.env.BROWSER_AGENT_DAEMON_TRANSPORT;
    if (forced === 'proxy' || forced === 'direct') return forced;
    // A browser we attached to is often a person's Chrome, which asks "Allow remote debugging?" for every
    // DevTools connection: through the proxy every client shares the daemon's one. A browser the daemon
    // launched asks nothing, and a direct connection spares each CDP call the hop through the daemon.
    return opts.transport ?? (browser.mode === 'launch' ? 'direct' : 'proxy');
  };
  const open = async (browser: BrowserSpec, cdpTimeoutMs?: number, lost?: ConnectSettings['rejoin']): Promise<BrowserHandle> => {
    const client = typeof opts.client === 'function' ? opts.client() : opts.client;
    // After the daemon died: the tabs our lost session worked in, handed back by the next daemon.
    const rejoin = lost?.tabs;
    const resumeTab = (given: string[]) => (lost?.active && given.includes(lost.active) ? lost.active : lost ? given[0] : undefined);
    // One session, one connection to an engine's endpoint: the daemon's (a browser and a pool slot each).
    const pool = browser.mode === 'attach' && isBrowserPool(browser.endpoint);
    // The extension relay is reachable only through the daemon: every CDP message goes through it.
    if (mode(browser) === 'proxy' || browser.mode === 'relay' || pool) {
      const transport = await DaemonTransport.open({ ...opts, client, browser, cdpTimeoutMs, rejoin });
      const connection = new CdpConnection(transport, transport.info.endpoint, { timeoutMs: cdpTimeoutMs });
      const { kind, endpoint, headless, session: sessionId, tabs } = transport.info;
      return { connection, kind, endpoint, headless, sessionId, pool, resumeTab: resumeTab(tabs), close: () => transport.end() };
    }
    const link = await DaemonLink.open({ ...opts, client, browser, cdpTimeoutMs, rejoin });
    let connection: CdpConnection;
    try {
      connection = await CdpConnection.connect(link.info.endpoint, { headers: browser.mode === 'attach' ? browser.headers : undefined, timeoutMs: cdpTimeoutMs });
    } catch (e) {
      await link.end().catch((e) => ignore(e, 'ending the link is best effort; the connect error is rethrown'));
      throw e;
    }
    const scope = new TabScope(link.info.tabs);
    link.rejoinTabs = () => scope.ids;
    link.ongone = (reason) => connection.close(`The session daemon ended this session: ${reason}.`);
    link.onlost = () => {
      if (connection.closed) return false;
      connection.setCloseReason('The session daemon exited and the browser it launched closed with it; the next call starts a new session.');
      return true;
    };
    link.onrejoined = () => connection.setCloseReason(undefined);
    // The browser went away: our session is over too (the daemon relaunches for the next one).
    connection.on('disconnected', () => void link.end().catch((e) => ignore(e, 'the browser is gone; ending its link is best effort')));
    // (link.end waits for a rejoin in flight, then ends that session too.)
    return {
      connection,
      kind: link.info.kind,
      endpoint: link.info.endpoint,
      headless: link.info.headless,
      get sessionId() {
        return link.session;
      },
      scope,
      resumeTab: resumeTab(link.info.tabs),
      onTabCreated: (id) => link.own(id),
      async close() {
        await link.end();
        connection.close();
      },
    };
  };
  return {
    name: 'daemon',
    launch: (launch, s) => open({ mode: 'launch', launch }, s.cdpTimeoutMs),
    attach: async (endpoint, s) => {
      if (endpoint === RELAY_ENDPOINT) return open({ mode: 'relay' }, s.cdpTimeoutMs);
      // Resolved here (an HTTP look, no WebSocket): whether it is an engine decides the transport.
      const ws = await resolveEndpoint(endpoint, s.headers);
      return open({ mode: 'attach', endpoint: ws, headers: s.headers, attachTab: s.attachTab, remoteBrowser: isBrowserPool(ws) ? (s.remoteBrowser ?? 'per-session') : undefined }, s.cdpTimeoutMs, s.rejoin);
    },
  };
}
