// The request guard's verdicts on what its targets report: a request paused by Fetch is continued or
// failed with BlockedByClient; a request the renderer's URL blocking stopped and a WebSocket a barrier
// refused are recorded when the policy agrees. Each refusal goes to the blocked log and is announced.
import type { Protocol } from 'devtools-protocol';
import { ignore } from '../base/ignore';
import { BlockedLog, type BlockedRequest } from './blockedLog';
import type { CdpConnection } from './cdp';
import { SETUP_TIMEOUT_MS } from './guardedTarget';
import type { PolicyRules } from './requestRules';

export class RequestRefusals {
  readonly log = new BlockedLog();

  /** `rules`: the rules in force now; `announce`: tells the guard's listeners about a refusal. */
  constructor(
    private readonly connection: CdpConnection,
    private readonly rules: () => PolicyRules,
    private readonly announce: (entry: BlockedRequest) => void,
  ) {}

  /** A request paused in `sessionId` (undefined: at the browser level); `owner` names its target, asked only on a refusal. */
  async paused(p: Protocol.Fetch.RequestPausedEvent, sessionId: string | undefined, owner: () => string): Promise<void> {
    const verdict = this.rules().verdict(p.request.url);
    if (!verdict) {
      await this.connection.send('Fetch.continueRequest', { requestId: p.requestId }, sessionId, SETUP_TIMEOUT_MS).catch((e) => ignore(e, 'the request or its target is gone'));
      return;
    }
    const entry = this.log.record(owner(), verdict, p.request.url, p.resourceType, p.frameId);
    await this.connection.send('Fetch.failRequest', { requestId: p.requestId, errorReason: 'BlockedByClient' }, sessionId, SETUP_TIMEOUT_MS).catch((e) => ignore(e, 'the request or its target is gone'));
    this.announce(entry);
  }

  /** The renderer's URL blocking stopped a service worker's request (its rules are the policy's own). */
  rendererBlocked(targetId: string, url: string, resourceType: string): void {
    const verdict = this.rules().verdict(url);
    if (verdict) this.announce(this.log.record(targetId, verdict, url, resourceType));
  }

  /** A barrier refused a WebSocket; recorded only when the policy agrees (the report comes from page context). */
  socketRefused(targetId: string, url: string): void {
    const verdict = this.rules().socketVerdict(url);
    if (verdict) this.announce(this.log.record(targetId, verdict, url, 'WebSocket'));
  }
}
