import { BrowserAgentError } from '../base/errors';
import type { BrowserHub } from './hub';
import { readPairing } from './relayPairing';
import { RelayServer } from './relayServer';
import type { DaemonSession } from './session';
import { ignore } from '../base/ignore';

export interface RelayModeHooks {
  log: (line: string) => void;
  session: (id: string) => DaemonSession | undefined;
  sessions: () => Iterable<DaemonSession>;
  /** The hub of the browser reached through the relay, once a relay session opened it. */
  relayHub: () => BrowserHub | undefined;
  /** Relay mode turned on, or the extension connected or went away: the daemon's idle clock looks again. */
  changed: () => void;
}

/**
 * Relay mode: the endpoint for the companion Chrome extension, on 127.0.0.1 only, opened when a
 * client asks for it (a relay session, "Pair Chrome Extension") and only once paired; and the view its
 * side panel shows (sessions on the relay, their tabs and current step).
 */
export class RelayMode {
  private relay?: Promise<RelayServer>;
  private viewTimer?: NodeJS.Timeout;
  /** The Chrome extension is connected: the user's Chrome waits for an agent. */
  connected = false;

  constructor(private readonly hooks: RelayModeHooks) {}

  /** Relay mode was asked for (the endpoint is open or opening). */
  get on(): boolean {
    return this.relay !== undefined;
  }

  /** The relay endpoint if it is open. */
  current(): Promise<RelayServer | undefined> {
    return this.relay?.catch((e) => ignore(e, 'a relay that failed to open is none')) ?? Promise.resolve(undefined);
  }

  start(): Promise<RelayServer> {
    this.relay ??= (async () => {
      const { hooks } = this;
      const pairing = readPairing();
      if (!pairing) throw new BrowserAgentError('ATTACH_FAILED', 'The Chrome extension is not paired.', 'Run "Browser Agent: Pair Chrome Extension" in VS Code (or `browser-agent-daemon pair`) and paste the code into the extension.');
      // The token is read at each connection: `pair --renew` takes effect without a restart.
      const relay = new RelayServer({ port: pairing.port, get token() { return readPairing()?.token ?? ''; } }, hooks.log);
      await relay.listen();
      relay.onstop = (id) => {
        const s = hooks.session(id);
        if (s) s.hub.interrupt(s, 'Stopped by the user from the Browser Agent Chrome extension.');
      };
      queueMicrotask(() => hooks.changed());
      relay.onconnect = () => {
        this.connected = true;
        hooks.changed();
        void this.pushView();
      };
      relay.ondisconnect = () => {
        this.connected = false;
        hooks.changed();
      };
      this.viewTimer = setInterval(() => this.pushView(), 1000);
      this.viewTimer.unref?.();
      return relay;
    })();
    this.relay.catch((e) => {
      ignore(e, 'the caller sees the error; the next call opens the relay again');
      this.relay = undefined;
    });
    return this.relay;
  }

  /** The side panel's view: sessions on the relay, their tabs and current step. */
  private async pushView() {
    const relay = await this.relay?.catch((e) => ignore(e, 'a relay that failed to open has no view to push'));
    if (!relay?.connected) return;
    const hub = this.hooks.relayHub();
    const tabIds = new Map(relay.tabs.map((t) => [t.targetId, t.tabId]));
    relay.sessions(
      [...this.hooks.sessions()]
        .filter((s) => hub && s.hub === hub)
        .map((s) => ({ id: s.id, client: s.client, tabs: s.hub.tabsOf(s).map((t) => tabIds.get(t.targetId)).filter((x): x is number => x !== undefined), step: s.hub.currentStep(s) })),
    );
  }

  async close(): Promise<void> {
    clearInterval(this.viewTimer);
    await (await this.current())?.close();
  }
}
