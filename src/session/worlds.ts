import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, readlinkSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ignore } from '../base/ignore';
import { processAlive } from '../base/processAlive';

/**
 * Isolated worlds are shared by name: two CDP clients that each create "browser-agent" in the
 * same frame get the same world, so two servers on one browser would share the snapshot script's
 * state (its element → ref numbering) and each would resolve the other's refs. Every process names
 * its worlds uniquely; the common prefix still tells other Browser Agents that one works in a page.
 *
 * A world outlives its agent (a page keeps it until it is closed), so the name also says whose it is:
 * the process id and a tag of the machine (host, boot and pid namespace). A world of a process of this
 * machine that is gone, or that closed its last session and marked its worlds released, no longer
 * makes a page look taken. Worlds of other machines, of older versions and of names we cannot read
 * still do: only what we can check frees a page.
 */
export const WORLD_PREFIX = 'browser-agent';

/** This machine, as a process of it can tell: another host, boot or pid namespace has other pids. */
function machineTag(): string {
  const read = (f: () => string) => {
    try {
      return f();
    } catch {
      return '';
    }
  };
  const boot = read(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
  const pidNs = read(() => readlinkSync('/proc/self/ns/pid'));
  return createHash('sha1').update(`${hostname()}\n${boot}\n${pidNs}`).digest('hex').slice(0, 6);
}

const MACHINE = machineTag();
const INSTANCE = `${process.pid.toString(36)}.${MACHINE}.${randomBytes(3).toString('hex')}`;
/** `browser-agent:<pid base36>.<machine>.<random>[:purpose]` */
const NAME = /^browser-agent:([0-9a-z]{1,8})\.([0-9a-f]{6})\.([0-9a-f]{6})(?::|$)/;

/** This process's world for `purpose` (the snapshot world has none), e.g. `browser-agent:1k2f.3e9a0c.9a3c1b` or `…:extract`. */
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

/**
 * True when the world tells that another Browser Agent may still work in its page: any agent world but
 * our own, unless its name shows a process of this machine that is gone or released its worlds.
 */
export function worldInUse(name: string): boolean {
  if (!isAgentWorld(name) || isOwnWorld(name)) return false;
  const m = NAME.exec(name);
  if (!m || m[2] !== MACHINE) return true;
  const pid = parseInt(m[1], 36);
  return processAlive(pid, true) && !isReleased(`${m[1]}.${m[2]}.${m[3]}`);
}

// Release marks: a file per process instance whose sessions all closed while it lives on (the VS Code
// extension host after a chat task). Only a folder of our own user is believed: a folder someone else
// made in the shared temp folder could otherwise free pages our live agents work in.
const MARKS = join(tmpdir(), `browser-agent-worlds-${process.getuid?.() ?? 'user'}`);

function isReleased(instance: string): boolean {
  try {
    const st = statSync(MARKS);
    if (process.getuid && st.uid !== process.getuid()) return false;
    return statSync(join(MARKS, instance)).isFile();
  } catch {
    return false;
  }
}

let liveSessions = 0;
/** This process wrote its release mark (and has not dropped it since). */
let marked = false;

/**
 * A session that may make worlds in pages others see (an attached or shared browser) starts: this process's
 * worlds are in use again. Call `worldsReleased` when it closes.
 */
export function worldsInUse(): void {
  if (liveSessions++ === 0) dropMark();
}

/** A session of `worldsInUse` closed: with none left, this process's worlds no longer hold their pages. */
export function worldsReleased(): void {
  if (liveSessions === 0) return;
  if (--liveSessions > 0) return;
  try {
    mkdirSync(MARKS, { recursive: true, mode: 0o700 });
    writeFileSync(join(MARKS, INSTANCE), String(process.pid), { mode: 0o600 });
    marked = true;
  } catch (e) {
    ignore(e, 'no mark: our worlds keep looking in use, and other agents open tabs of their own');
  }
}

function dropMark() {
  if (!marked) return;
  marked = false;
  try {
    unlinkSync(join(MARKS, INSTANCE));
  } catch (e) {
    ignore(e, 'no mark to drop');
  }
}

// A gone process's worlds are free by its pid; the mark is not needed any more.
process.once('exit', dropMark);
