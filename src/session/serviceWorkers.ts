// Service workers under the request guard: they stop when idle (or when told to) and start again for
// the next event in a fresh global scope, so the guard leaves a stopped one or sets a restarted one up
// again; and it remembers their recent requests, to name what the renderer's URL blocking stopped.
import type { Protocol } from 'devtools-protocol';
import { ignore } from '../base/ignore';
import type { CdpConnection } from './cdp';
import { SETUP_TIMEOUT_MS, sender, type GuardedTarget } from './guardedTarget';
import type { PolicyRules } from './requestRules';
import type { TargetInterception } from './targetInterception';

/** Service workers' requests remembered per worker, to name what the renderer's URL blocking stopped. */
const KEEP_REQUESTS = 200;

/**
 * A service worker stopped. One the guard attached to while it ran would start again inside this
 * session without pausing, so its script would run before a barrier could be put into its new
 * global scope (its WebSocket got out on every restart): the guard leaves it, and its next start
 * is a new target the browser-level auto-attach hands over paused, like a first start. One
 * attached at its start pauses on restart too, and is set up again in workerRestarted.
 */
export function workerStopped(connection: CdpConnection, t: GuardedTarget): void {
  if (t.leaving) return;
  t.leaving = true;
  void connection.send('Target.detachFromTarget', { sessionId: t.sessionId }, t.parent, SETUP_TIMEOUT_MS).catch((e) => ignore(e, 'the worker is gone already'));
}

/**
 * A service worker started again inside the guard's session, in a fresh global scope: interception
 * and the barrier go in again before it is let run (it is paused when the guard attached at its
 * start; a paused worker nobody releases would never run again). `rules`: the rules in force now.
 */
export async function workerRestarted(connection: CdpConnection, t: GuardedTarget, interception: TargetInterception, rules: () => PolicyRules): Promise<void> {
  if (t.leaving) {
    // It started before the guard had left: attach again once the detach is through.
    t.reattach = true;
    return;
  }
  const send = sender(connection, t.sessionId);
  try {
    // The rules are read again after each await: a policy change meanwhile applies.
    if (rules().active) {
      await interception.setFetch(t, rules().fetchPatterns());
      // A fresh global scope: the barrier goes in again, whatever was installed in the old one.
      t.patterns = '[]';
      // Answered only once the worker runs: sent before the release, not waited for.
      interception.setPatterns(t, rules().socketPatterns()).catch((e) => ignore(e, 'answered only once the worker runs; not waited for'));
    }
  } catch (e) {
    ignore(e, 'it stopped again');
  } finally {
    void send('Runtime.runIfWaitingForDebugger').catch((e) => ignore(e, 'it stopped again'));
  }
}

/** A request a service worker sends, remembered (the last KEEP_REQUESTS) until it ends. */
export function workerRequestSent(t: GuardedTarget, p: Protocol.Network.RequestWillBeSentEvent): void {
  const requests = (t.requests ??= new Map());
  requests.set(p.requestId, p.request.url);
  if (requests.size > KEEP_REQUESTS) requests.delete(requests.keys().next().value as string);
}

/** A service worker's request ended: its URL when the renderer's URL blocking stopped it, else undefined. */
export function workerRequestEnded(t: GuardedTarget, p: { requestId: string; blockedReason?: string }): string | undefined {
  const url = t.requests?.get(p.requestId);
  if (url === undefined) return undefined;
  t.requests!.delete(p.requestId);
  return p.blockedReason === 'inspector' ? url : undefined;
}
