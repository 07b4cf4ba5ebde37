import type { Decision } from '../safety/types';
import type { RunHooks } from '../tools/runner';

export interface OriginPolicy {
  allowedOrigins: string[];
  blockedOrigins: string[];
}

/** `*.example.com`, `https://app.example.com`, `localhost:*` → a matcher on a URL's origin or host. */
export function originMatcher(pattern: string): (url: URL) => boolean {
  const p = pattern.trim().toLowerCase();
  const re = new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  return (url) => re.test(url.origin.toLowerCase()) || re.test(url.host.toLowerCase()) || re.test(url.hostname.toLowerCase());
}

function parse(u?: string): URL | undefined {
  try {
    return u ? new URL(u) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The MCP server's `decide` hook. This is the one place the safety policy (src/safety, issue 5)
 * plugs in: until it does, only the --allowed-origins / --blocked-origins flags are enforced, on
 * the page acted on and on navigation destinations.
 */
export function mcpDecide(policy: OriginPolicy): RunHooks['decide'] {
  const blocked = policy.blockedOrigins.map(originMatcher);
  const allowed = policy.allowedOrigins.map(originMatcher);
  if (!blocked.length && !allowed.length) return undefined;
  const refuse = (url: URL, why: string): Decision => ({ rating: { level: 'block', rule: 'origin', reason: `${url.origin} is ${why}` }, outcome: 'blocked' });
  return async (_tool, _input, preview) => {
    for (const u of [preview?.destination, preview?.url].map(parse)) {
      if (!u || u.href === 'about:blank' || !/^https?:$/.test(u.protocol)) continue;
      if (blocked.some((m) => m(u))) return refuse(u, 'in --blocked-origins');
      if (allowed.length && !allowed.some((m) => m(u))) return refuse(u, 'not in --allowed-origins');
    }
    return { rating: { level: 'auto' }, outcome: 'auto' };
  };
}
