import { errorMessage } from './errors';

/**
 * Drops an error on purpose, and says why, so "on purpose" reads differently from "forgotten":
 * `.catch((e) => ignore(e, 'the frame may be gone; the next read finds out'))`. With BROWSER_AGENT_DEBUG
 * set, each one leaves a line on stderr (stdout is the MCP channel) with the reason and the error.
 * A third argument is the value to go on with instead (`ignore(e, 'unread counts as not selected', false)`).
 * The lint rule house/ignored-errors (scripts/eslint/ignoredErrors.mjs) sends every dropped error here.
 */
export function ignore(err: unknown, why: string): undefined;
export function ignore<T>(err: unknown, why: string, fallback: T): T;
export function ignore<T>(err: unknown, why: string, fallback?: T): T | undefined {
  if (typeof process !== 'undefined' && process.env.BROWSER_AGENT_DEBUG) process.stderr.write(`[browser-agent] ignored: ${why}: ${errorMessage(err)}\n`);
  return fallback;
}
