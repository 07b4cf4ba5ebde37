import { errorMessage } from './errors';

/**
 * Drops an error on purpose, and says why, so "on purpose" reads differently from "forgotten":
 * `.catch((e) => ignore(e, 'the frame may be gone; the next read finds out'))`. With BROWSER_AGENT_DEBUG
 * set, each one leaves a line on stderr (stdout is the MCP channel) with the reason and the error.
 */
export function ignore(err: unknown, why: string): undefined {
  if (typeof process !== 'undefined' && process.env.BROWSER_AGENT_DEBUG) process.stderr.write(`[browser-agent] ignored: ${why}: ${errorMessage(err)}\n`);
  return undefined;
}
