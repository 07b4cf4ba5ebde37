import { chmodSync, lstatSync, mkdirSync, unlinkSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { BrowserAgentError } from '../base/errors';

export interface DaemonPaths {
  dir: string;
  socket: string;
  /** Held (mkdir) while a daemon checks for a running one and binds, so two never start. */
  startLock: string;
  log: string;
  /** Browsers the daemon launched, so a successor can clean up after a daemon that was killed. */
  browsers: string;
}

/**
 * The per-user folder: $BROWSER_AGENT_DAEMON_DIR (tests), else $XDG_RUNTIME_DIR/browser-agent,
 * else <tmp>/browser-agent-<uid>. Created 0700; refused when another user owns it or others can
 * enter it, since whoever reaches the socket drives the browser.
 */
export function daemonPaths(env: NodeJS.ProcessEnv = process.env): DaemonPaths {
  const uid = process.getuid?.() ?? -1;
  const dir = env.BROWSER_AGENT_DAEMON_DIR || (env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, 'browser-agent') : join(tmpdir(), `browser-agent-${uid >= 0 ? uid : userInfo().username}`));
  const socket = process.platform === 'win32' ? `\\\\.\\pipe\\browser-agent-${userInfo().username}-${Buffer.from(dir).toString('hex').slice(-16)}` : join(dir, 'daemon.sock');
  return { dir, socket, startLock: join(dir, 'start.lock'), log: join(dir, 'daemon.log'), browsers: join(dir, 'browsers.json') };
}

export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const st = lstatSync(dir);
  if (!st.isDirectory()) throw new BrowserAgentError('LAUNCH_FAILED', `${dir} is not a folder.`);
  if (st.uid !== process.getuid?.()) throw new BrowserAgentError('LAUNCH_FAILED', `The session daemon folder ${dir} belongs to another user.`, 'Set BROWSER_AGENT_DAEMON_DIR to a folder of your own.');
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/**
 * Makes the folder private and removes a socket file that is not ours (planted by another user
 * while the folder was open to others, or not a socket at all) before anyone connects or binds:
 * whoever answers on that path would be handed every page and every typed secret.
 */
export function ensurePrivateSocket(paths: DaemonPaths): void {
  ensurePrivateDir(paths.dir);
  if (process.platform === 'win32') return;
  let st;
  try {
    st = lstatSync(paths.socket);
  } catch {
    return; // none yet
  }
  if (st.isSocket() && st.uid === process.getuid?.()) return;
  unlinkSync(paths.socket); // our folder: we may remove what is in it
}
