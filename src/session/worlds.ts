import { randomBytes } from 'node:crypto';

/**
 * Isolated worlds are shared by name: two CDP clients that each create "browser-agent" in the
 * same frame get the same world, so two servers on one browser would share the snapshot script's
 * state (its element → ref numbering) and each would resolve the other's refs. Every process names
 * its worlds uniquely; the common prefix still tells other Browser Agents that one works in a page.
 */
export const WORLD_PREFIX = 'browser-agent';
const INSTANCE = `${process.pid.toString(36)}${randomBytes(3).toString('hex')}`;

/** This process's world for `purpose` (the snapshot world has none), e.g. `browser-agent:1k2f9a3c` or `browser-agent:1k2f9a3c:extract`. */
export function worldName(purpose?: string): string {
  return `${WORLD_PREFIX}:${INSTANCE}${purpose ? `:${purpose}` : ''}`;
}

/** True for a world made by any Browser Agent process (this one or another). */
export function isAgentWorld(name: string): boolean {
  return name === WORLD_PREFIX || name.startsWith(`${WORLD_PREFIX}:`) || name.startsWith(`${WORLD_PREFIX}-`);
}

/**
 * True for a world this process made. A server whose connection dropped finds its own worlds still in the
 * page it worked in when it reconnects: that page is still its own, not another Browser Agent's.
 */
export function isOwnWorld(name: string): boolean {
  return name.startsWith(`${WORLD_PREFIX}:${INSTANCE}`);
}
