import { checkRequestOrigin, hasOriginRules, interceptPatterns, webSocketBlockPatterns } from '../../src/safety/origins';
import { requestRegexRules } from '../../src/safety/regexRules';
import type { RequestPolicy } from '../../src/session/requestRules';

/** The policy the decider installs in the session's request guard, over plain settings a test can switch. */
export function policyFor(settings: { blockedOrigins: string[]; allowedOrigins: string[] }): RequestPolicy {
  return {
    active: () => hasOriginRules(settings),
    check: (url) => {
      const v = checkRequestOrigin(url, settings);
      return v.allowed ? undefined : { rule: v.rule!, reason: v.reason! };
    },
    blockPatterns: () => webSocketBlockPatterns(settings),
    interceptPatterns: () => interceptPatterns(settings),
    regexRules: () => requestRegexRules(settings),
  };
}
