import { isAgentError } from '../base/errors';
import { BROWSER_PROBE_MS } from '../session/liveness';
import type { BrowserHub } from './hub';

/**
 * True when the shared browser answers a browser-level call within BROWSER_PROBE_MS. A browser that
 * froze (SIGSTOP, wedged) or whose connection stalled without closing keeps its hub "open" for ever:
 * without this look, every new session would be handed a browser that answers nothing. Asked when a
 * client opens a session (not per call); any answer, even an error, counts.
 */
export function hubAnswers(hub: BrowserHub): Promise<boolean> {
  return hub.call('Browser.getVersion', {}, undefined, BROWSER_PROBE_MS).then(
    () => true,
    (e) => !isAgentError(e, 'TIMEOUT') && !isAgentError(e, 'BROWSER_DISCONNECTED'),
  );
}
