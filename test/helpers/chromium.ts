import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBrowserExecutable, groupAlive, readDevToolsActivePort, sleep, type LaunchOptions } from '../../src/session/launcher';

/** Launch options every test uses: headless, and no lookups of hosts other than 127.0.0.1. */
export const TEST_LAUNCH: LaunchOptions = {
  headless: true,
  args: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost', '--disable-quic'],
};

/** The same server reached through another site, so its iframes are out-of-process (OOPIF). */
export function crossSite(url: string): string {
  return url.replace('://127.0.0.1:', '://localhost:');
}

export interface ExternalBrowser {
  pid: number;
  profileDir: string;
  port: number;
  wsEndpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * A Chromium started by the test itself (not by the code under test), as a user would start
 * their own browser, for the attach tests.
 */
export async function startExternalChromium(): Promise<ExternalBrowser> {
  const profileDir = mkdtempSync(join(tmpdir(), 'ba-test-external-'));
  const exe = findBrowserExecutable();
  const child = spawn(
    exe,
    [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--remote-debugging-port=0', `--user-data-dir=${profileDir}`, 'about:blank',
    ],
    { detached: true, stdio: 'ignore' },
  );
  const pid = child.pid!;
  let wsEndpoint: string | undefined;
  for (let i = 0; i < 500 && !wsEndpoint; i++) {
    wsEndpoint = readDevToolsActivePort(profileDir);
    if (!wsEndpoint) await sleep(20);
  }
  if (!wsEndpoint) throw new Error('external chromium did not start');
  return {
    pid,
    profileDir,
    port: Number(new URL(wsEndpoint).port),
    wsEndpoint,
    process: child,
    async stop() {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* gone */
      }
      for (let i = 0; i < 100 && groupAlive(pid); i++) await sleep(20);
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}
