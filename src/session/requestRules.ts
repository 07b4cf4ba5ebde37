// The origin rules as the request guard reads them: each reading of the policy fails closed (a rule that throws
// refuses, a broken narrowing pauses everything, a broken regex list blocks every web URL), in one place.
/** Why a request may not go out: the rule id and plain words. */
export interface RequestVerdict {
  rule: string;
  reason: string;
}

/**
 * The rules the guard applies (decided in src/safety; the session only enforces them).
 * `active()` false means no origin rule is set: requests then pass without being paused.
 */
export interface RequestPolicy {
  active(): boolean;
  check(url: string): RequestVerdict | undefined;
  /** URLPattern rules for what `Fetch` never sees (WebSocket handshakes); see socketBarrier.ts. */
  blockPatterns?(): { urlPattern: string; block: boolean }[];
  /**
   * `Fetch` URL patterns covering every URL `check` could refuse (default `*`, every request):
   * requests outside them are never paused, which saves a round trip each.
   */
  interceptPatterns?(): string[];
  /**
   * Whether a tab's main frame may show a document from `url` (the origin rules, and the scheme
   * rule) — for the session's second line (landedPageCheck.ts); default `check`.
   */
  checkPage?(url: string): RequestVerdict | undefined;
  /**
   * The origin rules as a first-match-wins list of URL regular expressions (RE2), for a guard that
   * cannot run code per request: the companion extension's declarativeNetRequest rules (see
   * tabRules below), which hold where the debugger cannot reach in time (a popup's first request).
   */
  regexRules?(): { regex: string; block: boolean }[];
}

/** What a guard calls on a policy, each call failing closed; a guard without a policy lets everything pass unpaused. */
export class PolicyRules {
  constructor(private readonly policy?: RequestPolicy) {}

  get active(): boolean {
    return !!this.policy?.active();
  }

  /** Why `url` may not be requested, or undefined; nothing while no rule is active. */
  verdict(url: string): RequestVerdict | undefined {
    try {
      return this.policy?.active() ? this.policy.check(url) : undefined;
    } catch (e) {
      return policyError(e); // a broken rule must not open the door: refuse
    }
  }

  /** Why a tab's main frame may not show `url` (the policy's page rule), or undefined; nothing while no rule is active. */
  pageVerdict(url: string): RequestVerdict | undefined {
    const policy = this.policy;
    if (!policy?.active()) return undefined;
    try {
      return policy.checkPage ? policy.checkPage(url) : policy.check(url);
    } catch (e) {
      return policyError(e);
    }
  }

  /** A WebSocket a barrier refused, judged again here (the report comes from page context); anything else is no refusal. */
  socketVerdict(url: string): RequestVerdict | undefined {
    return /^wss?:\/\//.test(url) ? this.verdict(url) : undefined;
  }

  /** The Fetch patterns the policy needs (JSON), '' when no rule is set. */
  fetchPatterns(): string {
    if (!this.active) return '';
    let list: string[] | undefined;
    try {
      list = this.policy?.interceptPatterns?.();
    } catch {
      list = undefined; // a broken narrowing must not open the door: pause everything
    }
    return JSON.stringify(list?.length ? list : ['*']);
  }

  /** The WebSocket barrier's rules (JSON). */
  socketPatterns(): string {
    return JSON.stringify(this.active ? (this.policy?.blockPatterns?.() ?? []) : []);
  }

  /** The policy's URL rules; a broken list must not open the door: every web URL refused. */
  regexRules(): { regex: string; block: boolean }[] {
    try {
      return this.policy?.regexRules?.() ?? [];
    } catch {
      return [{ regex: '^(?:https?|wss?)://', block: true }];
    }
  }
}

function policyError(e: unknown): RequestVerdict {
  return { rule: 'policy-error', reason: `the safety policy could not be evaluated (${(e as Error).message})` };
}
