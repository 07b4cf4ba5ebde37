import { spawn, type ChildProcess } from 'node:child_process';
import { ignore } from '../base/ignore';

/**
 * A launched browser must not outlive the process that owns it, however that process ends
 * (SIGKILL included, where no exit hook runs). The watchdog is a tiny separate Node process in its
 * own process group: it holds the read end of a pipe from the owner, and the kernel closes the write
 * end when the owner dies, for any reason. On that EOF — or when it finds itself re-parented, in case
 * the pipe was inherited somewhere — it kills the browser's process group and deletes a temporary
 * profile. It needs nothing from the dead process.
 *
 * The script is passed with `-e` so there is no extra file to ship; it only uses Node built-ins.
 */
const WATCHDOG_SOURCE = String.raw`
const [ownerPid, pgid, profile] = [Number(process.argv[1]), Number(process.argv[2]), process.argv[3] || ''];
const fs = require('fs');
let done = false;
function alive() {
  try { process.kill(-pgid, 0); return true; } catch (e) { return e.code === 'EPERM'; }
}
function finish(code) {
  if (profile) { try { fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }); } catch {} }
  process.exit(code);
}
function reap() {
  if (done) return;
  done = true;
  try { process.kill(-pgid, 'SIGTERM'); } catch {}
  const start = Date.now();
  const t = setInterval(() => {
    if (!alive()) { clearInterval(t); finish(0); }
    else if (Date.now() - start > 1500) { try { process.kill(-pgid, 'SIGKILL'); } catch {} if (Date.now() - start > 4000) { clearInterval(t); finish(1); } }
  }, 50);
}
process.stdin.on('data', (d) => { if (String(d).includes('release')) { done = true; process.exit(0); } });
process.stdin.on('end', reap);
process.stdin.on('error', reap);
process.stdin.resume();
// Fallback: the owner is gone when we are re-parented; the browser gone means nothing to guard.
setInterval(() => { if (process.ppid !== ownerPid) reap(); else if (!done && !alive()) { done = true; finish(0); } }, 500);
`;

export interface Watchdog {
  pid: number;
  /** The owner closes the browser itself: the watchdog leaves without touching anything. */
  release(): void;
}

/**
 * Starts the watchdog for a browser whose process group is `pgid`. `profileDir` is deleted after
 * the kill (only for temporary profiles). Returns undefined where process groups do not exist.
 */
export function startWatchdog(pgid: number, profileDir?: string): Watchdog | undefined {
  if (process.platform === 'win32') return undefined; // Windows: the browser's job object would be the tool; not supported here
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, ['-e', WATCHDOG_SOURCE, String(process.pid), String(pgid), profileDir ?? ''], {
      detached: true, // its own group: a signal to the owner's group does not take the watchdog with it
      stdio: ['pipe', 'ignore', 'ignore'],
      // In VS Code's extension host execPath is Electron; this makes it behave as plain Node.
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
  } catch {
    return undefined;
  }
  child.on('error', () => {});
  child.stdin?.on('error', () => {});
  // Neither the process nor its pipe may keep the owner's event loop alive.
  child.unref();
  (child.stdin as unknown as { unref?: () => void })?.unref?.();
  const pid = child.pid;
  if (!pid) return undefined;
  return {
    pid,
    release() {
      try {
        child.stdin?.write('release\n');
        child.stdin?.end();
      } catch (e) {
        ignore(e, 'already gone');
      }
    },
  };
}
