import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CdpConnection } from '../../src/session/cdp';
import { findBrowserExecutable, groupAlive, readDevToolsActivePort, sleep } from '../../src/session/launcher';

/** Whether an X virtual framebuffer can be started here (`apt-get install xvfb`; .ci/run installs it). */
export function hasXvfb(): boolean {
  return spawnSync('sh', ['-c', 'command -v Xvfb'], { encoding: 'utf8' }).status === 0;
}

function stopGroup(pid: number) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}

/** An X display of its own (Xvfb picks a free number and tells it on a pipe). */
export async function startXvfb(): Promise<{ display: string; stop(): Promise<void> }> {
  const child = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x900x24', '-nolisten', 'tcp'], { detached: true, stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  const pid = child.pid!;
  const number = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('Xvfb did not start within 10 s')), 10_000);
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (d) => {
      out += String(d);
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(out.trim());
      }
    });
    child.once('exit', (code) => reject(new Error(`Xvfb exited (${code})`)));
  });
  return {
    display: `:${number}`,
    async stop() {
      stopGroup(pid);
      for (let i = 0; i < 100 && groupAlive(pid); i++) await sleep(20);
    },
  };
}

export interface HeadedChromium {
  wsEndpoint: string;
  /** The test's own connection (the person's hands and eyes; attaching to a tab moves no focus). */
  conn: CdpConnection;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** A headed Chromium on `display`, as a person starts it, showing `url` in its one window. */
export async function startHeadedChromium(display: string, url: string): Promise<HeadedChromium> {
  const profileDir = mkdtempSync(join(tmpdir(), 'ba-test-headed-'));
  const child = spawn(
    findBrowserExecutable(),
    [
      '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--no-first-run', '--no-default-browser-check', '--password-store=basic', '--window-size=1200,850',
      '--remote-debugging-port=0', `--user-data-dir=${profileDir}`, url,
    ],
    { detached: true, stdio: 'ignore', env: { ...process.env, DISPLAY: display } },
  );
  const pid = child.pid!;
  let wsEndpoint: string | undefined;
  for (let i = 0; i < 1000 && !wsEndpoint; i++) {
    wsEndpoint = readDevToolsActivePort(profileDir);
    if (!wsEndpoint) await sleep(20);
  }
  if (!wsEndpoint) {
    stopGroup(pid);
    throw new Error('headed chromium did not start');
  }
  const conn = await CdpConnection.connect(wsEndpoint);
  return {
    wsEndpoint,
    conn,
    process: child,
    async stop() {
      conn.close();
      stopGroup(pid);
      for (let i = 0; i < 100 && groupAlive(pid); i++) await sleep(20);
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}

/**
 * The person's page: an input with the caret in it, and a log of everything that would tell it that it
 * lost the person's attention — blur, focus, visibilitychange, pagehide, freeze — plus a sample of
 * document.hasFocus() every 50 ms, so a focus lost and given back between two events is still seen.
 */
export const PERSON_PAGE = `<!doctype html><title>person</title>
<input id=mine autofocus aria-label="person's field">
<script>
window.focusLog = [];
const note = (what) => focusLog.push(what + ' visibility=' + document.visibilityState + ' hasFocus=' + document.hasFocus());
for (const e of ['blur', 'focus', 'pagehide']) addEventListener(e, () => note(e));
for (const e of ['visibilitychange', 'freeze', 'resume']) document.addEventListener(e, () => note(e));
window.focusLost = 0;
setInterval(() => { if (!document.hasFocus() || document.visibilityState !== 'visible') focusLost++; }, 50);
</script>`;

/** What the person's page saw, read over the test's own connection. */
export async function personState(conn: CdpConnection, targetId: string): Promise<{ log: string[]; lost: number; hasFocus: boolean; visibility: string; typed: string }> {
  const { sessionId } = await conn.send('Target.attachToTarget', { targetId, flatten: true });
  try {
    const { result } = await conn.send(
      'Runtime.evaluate',
      { expression: `({ log: focusLog, lost: focusLost, hasFocus: document.hasFocus(), visibility: document.visibilityState, typed: document.getElementById('mine').value })`, returnByValue: true },
      sessionId,
    );
    return result.value;
  } finally {
    await conn.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
  }
}

/** Skips a suite that needs a display when there is no Xvfb here; under CI the skip fails the run (.mocharc.cjs). */
export function skipWithoutXvfb(ctx: Mocha.Context, inCI: boolean): void {
  if (hasXvfb()) return;
  console.log(`      skipped: no Xvfb here (apt-get install xvfb)${inCI ? '; .ci/run installs it' : ''}`);
  ctx.skip();
}

/**
 * Waits until the person's tab has the focus, then clears what its page logged while it was being opened:
 * from here on any entry is something an agent did to it.
 */
export async function personFocused(conn: CdpConnection, targetId: string): Promise<void> {
  for (let i = 0; i < 100 && !(await personState(conn, targetId).catch(() => undefined))?.hasFocus; i++) await sleep(50);
  const { sessionId } = await conn.send('Target.attachToTarget', { targetId, flatten: true });
  await conn.send('Runtime.evaluate', { expression: 'focusLog.length = 0; focusLost = 0' }, sessionId);
  await conn.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
  const s = await personState(conn, targetId);
  if (!s.hasFocus || s.visibility !== 'visible') throw new Error(`the person's tab is not focused and visible before the agents start: ${JSON.stringify(s)}`);
}
