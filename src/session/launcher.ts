import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Launcher, getChromePath } from 'chrome-launcher';
import { BrowserAgentError } from '../base/errors';
import { cleanStaleProfiles, markOwner, TEMP_PROFILE_PREFIX } from './staleProfiles';
import { startWatchdog } from './watchdog';
import { ignore } from '../base/ignore';

export interface LaunchOptions {
  /** Browser binary; default: what chrome-launcher finds, then /usr/bin/chromium. */
  executablePath?: string;
  headless?: boolean;
  /** A persistent profile folder; default: a fresh temporary profile deleted on close. */
  userDataDir?: string;
  /** Extra command-line switches. */
  args?: string[];
  /** How long to wait for the DevTools endpoint to appear. */
  startTimeoutMs?: number;
}

export interface LaunchedBrowser {
  pid: number;
  /** The process that kills the browser if its owner dies without closing it (absent on Windows). */
  watchdogPid?: number;
  wsEndpoint: string;
  userDataDir: string;
  executablePath: string;
  temporaryProfile: boolean;
  process: ChildProcess;
  /**
   * Stops the whole process group (TERM, then KILL) and deletes a temporary profile. `graceMs`:
   * how long to let a browser already told to close (`Browser.close`) exit by itself first — a
   * browser cut short by TERM leaves its singleton socket folder in the temp directory.
   */
  kill(graceMs?: number): Promise<void>;
}

/** Switches that keep Chromium quiet on a closed network and free of first-run UI. */
export const QUIET_FLAGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-default-apps',
];

const FALLBACK_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/** Process groups of browsers we launched, killed synchronously if the host process exits. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
  });
}

function killGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** True while any live (non-zombie) process of the group still exists. */
export function groupAlive(pid: number): boolean {
  if (process.platform === 'linux') return linuxGroupMembers(pid).length > 0;
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Pids in process group `pgid` that are not zombies. A zombie only waits for its parent to reap
 * it; counting it as alive would make every close wait for the reaper.
 */
export function linuxGroupMembers(pgid: number): number[] {
  const members: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return members;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the parenthesised command name: state ppid pgrp …
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(rest[2]) === pgid && rest[0] !== 'Z' && rest[0] !== 'X') members.push(Number(name));
  }
  return members;
}

export function findBrowserExecutable(preferred?: string): string {
  if (preferred) {
    if (!existsSync(preferred)) {
      throw new BrowserAgentError('LAUNCH_FAILED', `The browser executable ${preferred} does not exist.`, 'Fix the setting browserAgent.browser.executablePath, or clear it to let the extension find Chrome/Chromium.');
    }
    return preferred;
  }
  try {
    const found = getChromePath();
    if (found) return found;
  } catch (e) {
    ignore(e, 'fall through to the usual paths');
  }
  const fallback = FALLBACK_PATHS.find((p) => existsSync(p));
  if (fallback) return fallback;
  throw new BrowserAgentError('LAUNCH_FAILED', 'No Chrome or Chromium was found on this machine.', 'Install Chrome or Chromium (e.g. `apt-get install chromium`), or set browserAgent.browser.executablePath.');
}

export function defaultLaunchArgs(opts: LaunchOptions, userDataDir: string): string[] {
  const args = [
    ...Launcher.defaultFlags(),
    ...QUIET_FLAGS,
    // Port 0 lets the OS pick a free port; we read it from DevToolsActivePort, so two launches never collide.
    '--remote-debugging-port=0',
    '--remote-debugging-address=127.0.0.1',
    `--user-data-dir=${userDataDir}`,
  ];
  if (opts.headless) args.push('--headless', '--disable-gpu', '--hide-scrollbars');
  // Chromium refuses to start as root with its sandbox on (containers, CI).
  if (process.platform === 'linux' && process.getuid?.() === 0) args.push('--no-sandbox');
  args.push(...(opts.args ?? []));
  args.push('about:blank');
  return [...new Set(args)];
}

export async function launchBrowser(opts: LaunchOptions = {}): Promise<LaunchedBrowser> {
  const executablePath = findBrowserExecutable(opts.executablePath);
  const temporaryProfile = !opts.userDataDir;
  if (temporaryProfile) cleanStaleProfiles();
  const userDataDir = opts.userDataDir || mkdtempSync(join(tmpdir(), TEMP_PROFILE_PREFIX));
  const portFile = join(userDataDir, 'DevToolsActivePort');
  // A stale file from an earlier run of a persistent profile would point at a dead port.
  if (existsSync(portFile)) {
    try {
      unlinkSync(portFile);
    } catch (e) {
      ignore(e, 'best effort: a stale port file that cannot be removed is left');
    }
  }
  const child = spawn(executablePath, defaultLaunchArgs(opts, userDataDir), {
    detached: process.platform !== 'win32', // own process group: we can kill the whole tree
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const pid = child.pid;
  if (!pid) {
    throw new BrowserAgentError('LAUNCH_FAILED', `Could not start ${executablePath}.`);
  }
  installExitHook();
  liveGroups.add(pid);
  // The exit hook does not run on SIGKILL; the watchdog covers every way the owner can end.
  const watchdog = startWatchdog(pid, temporaryProfile ? userDataDir : undefined);
  if (temporaryProfile) markOwner(userDataDir, pid);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });

  const cleanupProfile = () => {
    if (temporaryProfile) {
      try {
        rmSync(userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
      } catch (e) {
        ignore(e, 'a temporary profile left behind is cleaned at the next launch');
      }
    }
  };

  const kill = async (graceMs = 0) => {
    const graceEnd = Date.now() + graceMs;
    while (!exited && Date.now() < graceEnd) await sleep(25);
    if (!exited) {
      killGroup(pid, 'SIGTERM');
      const deadline = Date.now() + 3000;
      while (!exited && Date.now() < deadline) await sleep(25);
    }
    // Renderers and helpers share the group; make sure none survives the browser process.
    if (groupAlive(pid)) {
      killGroup(pid, 'SIGKILL');
      const deadline = Date.now() + 2000;
      while (groupAlive(pid) && Date.now() < deadline) await sleep(25);
    }
    liveGroups.delete(pid);
    watchdog?.release();
    cleanupProfile();
  };

  const timeout = opts.startTimeoutMs ?? 30_000;
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    if (exited) {
      liveGroups.delete(pid);
      watchdog?.release();
      cleanupProfile();
      throw new BrowserAgentError('LAUNCH_FAILED', `The browser exited during start-up.${stderr ? `\n${stderr.trim().split('\n').slice(-5).join('\n')}` : ''}`, 'Check browserAgent.browser.executablePath and browserAgent.browser.args; on Linux without a display, enable headless mode.');
    }
    const endpoint = readDevToolsActivePort(userDataDir);
    if (endpoint) {
      return { pid, watchdogPid: watchdog?.pid, wsEndpoint: endpoint, userDataDir, executablePath, temporaryProfile, process: child, kill };
    }
    await sleep(20);
  }
  await kill();
  throw new BrowserAgentError('LAUNCH_FAILED', `The browser did not open its DevTools endpoint within ${timeout} ms.`);
}

/** `DevToolsActivePort` holds the port on line 1 and the browser's WebSocket path on line 2. */
export function readDevToolsActivePort(profileDir: string, host = '127.0.0.1'): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(profileDir, 'DevToolsActivePort'), 'utf8');
  } catch {
    return undefined;
  }
  const [portLine, pathLine] = text.split(/\r?\n/);
  const port = Number(portLine);
  if (!Number.isInteger(port) || port <= 0 || !pathLine?.startsWith('/devtools/browser/')) return undefined;
  return `ws://${host}:${port}${pathLine.trim()}`;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
