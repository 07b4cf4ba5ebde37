import type { SessionManager } from '../session/manager';
import { callsSettled } from './inFlight';
import { ignore } from '../base/ignore';

/** How long a shutdown lets calls it cut short finish (they fail at once: their browser is gone). */
const CALLS_GRACE_MS = 3000;

/**
 * What the extension (deactivate) and the MCP server (its client gone, SIGTERM) do when they shut down, in this order: the browser session
 * first — a browser we launched is closed, a daemon session ends (its tab released), an attached
 * browser is only detached from, and nothing can start another — so a call still running ends at once;
 * then, once such calls are recorded, the audit closes every open task (`interrupted`), so the log ends
 * with a closing record and loses no step.
 */
export async function shutdown(parts: { sessions?: SessionManager; audit?: { dispose(): Promise<void> } }, graceMs = CALLS_GRACE_MS): Promise<void> {
  await parts.sessions?.dispose().catch((e) => ignore(e, 'shutting down: the audit log is closed whatever the sessions did'));
  await callsSettled(graceMs);
  await parts.audit?.dispose().catch((e) => ignore(e, 'shutting down: nothing is left to report to'));
}
