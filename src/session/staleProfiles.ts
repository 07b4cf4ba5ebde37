import { readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ignore } from '../base/ignore';
import { processAlive } from '../base/processAlive';

/** Temporary profiles are `<tmp>/browser-agent-profile-XXXXXX` (mkdtemp). */
export const TEMP_PROFILE_PREFIX = 'browser-agent-profile-';
/** Written into each temporary profile: who owns it, so a later start can tell a crash's leftovers. */
const OWNER_FILE = 'browser-agent-owner.json';
/** A profile folder with no owner file and no lock is only removed once it is this old (a start may be under way). */
const ORPHAN_AGE_MS = 10 * 60_000;

export function markOwner(profileDir: string, browserPid: number): void {
  try {
    writeFileSync(join(profileDir, OWNER_FILE), JSON.stringify({ owner: process.pid, browser: browserPid, host: hostname() }));
  } catch (e) {
    ignore(e, 'best effort: without it the lock file still tells');
  }
}

/** Chromium's `SingletonLock` is a symlink to `<host>-<pid>` while the browser runs. */
function lockPid(dir: string): { host: string; pid: number } | undefined {
  try {
    const m = /^(.*)-(\d+)$/.exec(readlinkSync(join(dir, 'SingletonLock')));
    return m ? { host: m[1], pid: Number(m[2]) } : undefined;
  } catch {
    return undefined;
  }
}

/** True when nothing alive on this machine can still be using the profile. */
export function isStaleProfile(dir: string, now = Date.now()): boolean {
  let owner: { owner?: number; browser?: number; host?: string } | undefined;
  try {
    owner = JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8'));
  } catch {
    owner = undefined;
  }
  const lock = lockPid(dir);
  if (owner?.host && owner.host !== hostname()) return false; // a shared /tmp: not ours to judge
  if (lock && lock.host !== hostname()) return false;
  if (owner) return !processAlive(owner.owner ?? 0, false) && !processAlive(owner.browser ?? 0, false) && !(lock && processAlive(lock.pid, false));
  if (lock) return !processAlive(lock.pid, false);
  try {
    return now - statSync(dir).mtimeMs > ORPHAN_AGE_MS;
  } catch {
    return false;
  }
}

/**
 * Deletes temporary profiles left behind by browsers whose owner died without cleaning up
 * (a crash of both the owner and its watchdog, a power cut). Returns the folders removed.
 */
export function cleanStaleProfiles(dir = tmpdir()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(TEMP_PROFILE_PREFIX)) continue;
    const path = join(dir, name);
    if (!isStaleProfile(path)) continue;
    try {
      rmSync(path, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
      removed.push(path);
    } catch (e) {
      ignore(e, "someone else's, or busy: leave it");
    }
  }
  return removed;
}
