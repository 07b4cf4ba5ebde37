/**
 * One vocabulary for how a task ended, used by the chat panel and the Task History view alike
 * (the chat's agent statuses and the audit log's outcomes name the same things).
 */
const LABELS: Record<string, string> = {
  success: 'Done',
  unverified: 'Not verified',
  failure: 'Could not finish',
  stopped: 'Stopped by you',
  cancelled: 'Stopped by you',
  'max-steps': 'Step limit reached',
  stuck: 'Stopped: repeating itself',
  error: 'Error',
  interrupted: 'Interrupted',
  ended: 'Ended',
  running: 'Running',
};

/** Words for a person: `Done`, `Could not finish`, `Stopped by you`… */
export function outcomeLabel(status: string | undefined): string {
  return LABELS[status ?? 'running'] ?? status ?? 'Running';
}

/** The chat's agent status → the audit log's outcome (the log keeps its own, coarser, set). */
export const AUDIT_OUTCOME = { success: 'success', unverified: 'failure', failure: 'failure', stopped: 'cancelled', 'max-steps': 'failure', stuck: 'failure', error: 'failure' } as const;

/** Good, bad or neutral, for colour. */
export function outcomeTone(status: string | undefined): 'ok' | 'bad' | 'neutral' {
  if (status === 'success') return 'ok';
  if (status === 'stopped' || status === 'cancelled' || status === 'ended' || status === 'running' || !status) return 'neutral';
  return 'bad';
}
