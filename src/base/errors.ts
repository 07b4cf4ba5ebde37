/** Every failure a model or a person can see carries one of these codes and, where useful, a hint. */
export type ErrorCode =
  | 'TARGET_NOT_FOUND'
  | 'STALE_REF'
  | 'NOT_INTERACTABLE'
  | 'COVERED'
  | 'NAVIGATION_FAILED'
  | 'TIMEOUT'
  | 'DIALOG_OPEN'
  | 'BLOCKED_BY_POLICY'
  | 'INVALID_INPUT'
  | 'BROWSER_DISCONNECTED'
  | 'LAUNCH_FAILED'
  | 'ATTACH_FAILED'
  | 'TAB_CLOSED'
  | 'CANCELLED'
  | 'PAGE_HUNG'
  /** The tab's renderer process died (out of memory, killed, a crash): only leaving the page helps. */
  | 'PAGE_CRASHED'
  /** The Chrome extension relay lost a call's answer (its service worker was stopped); not repeated. */
  | 'RELAY_INTERRUPTED'
  /** A browser_run_script script failed: it did not compile, or it threw (its message and line follow). */
  | 'SCRIPT_ERROR'
  /** A browser_run_script script hit one of its limits (time, tool calls, memory, output size). */
  | 'SCRIPT_LIMIT'
  | 'CDP_ERROR';

export class BrowserAgentError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'BrowserAgentError';
  }

  /** One line for a model or a log: `CODE: message (hint)`. */
  toText(): string {
    return `${this.code}: ${this.message}${this.hint ? `\nHint: ${this.hint}` : ''}`;
  }
}

export function isAgentError(e: unknown, code?: ErrorCode): e is BrowserAgentError {
  return e instanceof BrowserAgentError && (code === undefined || e.code === code);
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
