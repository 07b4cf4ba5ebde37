import { BrowserAgentError, errorMessage } from '../base/errors';
import { redactEndpoint } from './remoteEngines';

/**
 * The browser we were attached to went away (the person closed it, it crashed, remote debugging was
 * turned off, a remote fleet dropped it) and does not answer at its address any more. The first-time
 * setup help ("turn on remote debugging…") would mislead here: say what happened, and that we never
 * start, relaunch or close a browser we only attached to.
 */
export function attachedBrowserGone(endpoint: string, cause: unknown): BrowserAgentError {
  return new BrowserAgentError(
    'BROWSER_DISCONNECTED',
    `The browser Browser Agent was attached to (${redactEndpoint(endpoint)}) is gone: it was closed or crashed, or stopped accepting connections (${errorMessage(cause).replace(/\.$/, '')}).`,
    'Browser Agent never starts or closes a browser it only attached to. Open it again with remote debugging on, and the next call attaches to it; or attach to another browser.',
  );
}

/** A call that found its browser gone while it ran: what went, in words that fit who owns the browser. */
export function lostWhileRunning(kind: 'launched' | 'attached', what: string): BrowserAgentError {
  return kind === 'launched'
    ? new BrowserAgentError('BROWSER_DISCONNECTED', `The browser exited or was killed ${what}.`, 'The next call launches a new one (earlier pages, tabs and refs are gone); navigate again.')
    : new BrowserAgentError('BROWSER_DISCONNECTED', `The browser Browser Agent was attached to went away ${what} (closed, crashed, or the connection dropped).`, 'Browser Agent never restarts or closes a browser it attached to; the next call attaches again once it is back.');
}
