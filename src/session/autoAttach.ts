import type { Protocol } from 'devtools-protocol';

/**
 * What a tab (and the request guard's page sessions) auto-attach to where the guard attaches service workers
 * at the browser level: frames and dedicated workers, not service workers. A service worker held by several
 * clients starts when any of them releases it, so the guard must be its only client to put its WebSocket
 * barrier in first (RequestGuard.childFilter).
 */
export const NO_SERVICE_WORKERS: Protocol.Target.TargetFilter = [{ type: 'service_worker', exclude: true }, {}];
