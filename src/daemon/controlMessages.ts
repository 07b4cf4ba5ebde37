import { BrowserAgentError, errorMessage, isAgentError } from '../base/errors';
import type { ClientMessage, DaemonMessage, DaemonStatus } from './protocol';
import type { RelayServer } from './relayServer';
import type { DaemonSession } from './session';

/** What control messages act on. */
export interface ControlTarget {
  session(id: string): DaemonSession | undefined;
  end(s: DaemonSession, reason: string): Promise<void>;
  status(): Promise<DaemonStatus>;
  relay(): Promise<RelayServer>;
  stop(reason: string): Promise<void>;
}

/**
 * A control message from a client (or the Sessions view, the CLI, the pairing command): end a session, own a tab,
 * status, focus, relay, shutdown. Answered on `send`; a failure is answered as an error, never thrown.
 */
export async function handleControl(d: ControlTarget, msg: ClientMessage, session: DaemonSession | undefined, send: (m: DaemonMessage) => void): Promise<void> {
  try {
    switch (msg.t) {
      case 'end':
        if (session) await d.end(session, 'ended by its client');
        return;
      case 'own':
        if (session?.direct && typeof msg.targetId === 'string') session.hub.claim(session, msg.targetId);
        return;
      case 'status':
        return send({ t: 'result', rid: msg.rid, status: await d.status() });
      case 'endSession': {
        const s = d.session(msg.session);
        if (!s) throw new BrowserAgentError('INVALID_INPUT', `No session ${msg.session}.`);
        await d.end(s, 'ended from the Sessions view');
        return send({ t: 'result', rid: msg.rid, ok: true });
      }
      case 'focus': {
        const s = d.session(msg.session);
        if (!s) throw new BrowserAgentError('INVALID_INPUT', `No session ${msg.session}.`);
        const target = s.activeTarget && s.hub.targets.has(s.activeTarget) ? s.activeTarget : s.hub.tabsOf(s)[0]?.targetId;
        if (!target) throw new BrowserAgentError('TAB_CLOSED', 'The session has no tab open.');
        await s.hub.call('Target.activateTarget', { targetId: target }, undefined, 5000);
        return send({ t: 'result', rid: msg.rid, ok: true });
      }
      case 'relay': {
        const relay = await d.relay();
        // Pairing again with "New Code": the extension still connected with the old token is let go.
        const dropped = relay.dropRevoked();
        return send({ t: 'result', rid: msg.rid, ok: true, relay: { port: relay.port, connected: relay.connected && !dropped, sharedTabs: relay.tabs.length } });
      }
      case 'shutdown':
        send({ t: 'result', rid: msg.rid, ok: true });
        return void d.stop('asked to stop');
    }
  } catch (e) {
    send({ t: 'error', rid: (msg as { rid?: number }).rid, code: isAgentError(e) ? e.code : 'CDP_ERROR', message: errorMessage(e) });
  }
}
