import { isAgentError } from '../base/errors';
import type { CdpSession } from './cdp';

/**
 * True when the renderer behind `session` runs a trivial script within `ms`. Only silence means hung: an
 * error answer (a context being replaced, a crashed target) came from a live process.
 */
export function answersWithin(session: CdpSession, ms: number): Promise<boolean> {
  return session.send('Runtime.evaluate', { expression: '0', returnByValue: true }, ms).then(
    () => true,
    (e) => !isAgentError(e, 'TIMEOUT'),
  );
}
