import { mkdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserAgentError } from '../base/errors';
import { sleep } from '../session/launcher';
import { ignore } from '../base/ignore';
import { processAlive } from '../base/processAlive';

/** A lock with no owner file yet (its starter is between mkdir and the write) is stale only after this long. */
const UNOWNED_STALE_MS = 10_000;

/** The kernel's start time of a process (clock ticks since boot, /proc/<pid>/stat field 22); undefined where unknown. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * Whether the process that took the lock is gone. The lock names its owner by pid and start time: a
 * pid the kernel has since given to another process (the starter was killed, its pid reused) has another
 * start time, so it does not keep the lock alive. A lock without an owner file falls back to its age.
 */
export function lockOwnerGone(lock: string, now = Date.now()): boolean {
  let owner: string;
  try {
    owner = readFileSync(join(lock, 'owner'), 'utf8');
  } catch {
    try {
      return now - statSync(lock).mtimeMs > UNOWNED_STALE_MS;
    } catch {
      return false; // gone meanwhile: the next mkdir will tell
    }
  }
  const [pidText, started] = owner.trim().split(' ');
  const pid = Number(pidText);
  if (!processAlive(pid, false)) return true;
  const nowStarted = processStartTime(pid);
  return !!started && !!nowStarted && started !== nowStarted;
}

/**
 * mkdir is atomic: whoever creates the folder checks for a running daemon and binds; others wait. A
 * starter killed while holding it (SIGKILL, a crash) leaves the folder behind: the next one takes it over
 * at once when its owner is gone, instead of waiting out a timeout.
 */
export async function withStartLock<T>(lock: string, fn: () => Promise<T>, waitMs = 15_000): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      mkdirSync(lock, { mode: 0o700 });
      writeFileSync(join(lock, 'owner'), `${process.pid} ${processStartTime(process.pid) ?? ''}`, { mode: 0o600 });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (lockOwnerGone(lock)) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new BrowserAgentError('LAUNCH_FAILED', `Could not take the daemon start lock ${lock}.`, 'Another session daemon is starting; if none is, delete that folder.');
      await sleep(50);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(join(lock, 'owner'), { force: true });
    try {
      rmdirSync(lock);
    } catch (e) {
      ignore(e, 'already gone');
    }
  }
}
