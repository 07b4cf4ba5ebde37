import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, sleep } from '../../src/session/launcher';
import { cleanStaleProfiles, TEMP_PROFILE_PREFIX } from '../../src/session/staleProfiles';
import { TEST_LAUNCH } from '../helpers/chromium';
import { HEADLESS_ARGS, startMcp } from '../helpers/mcpProcess';
import { browserProcesses, launchedBrowserOf, processes } from '../helpers/procs';

/** A pid that surely belongs to no process: one that just exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

async function waitFor<T>(what: () => T | undefined, ms: number): Promise<T | undefined> {
  const end = Date.now() + ms;
  for (;;) {
    const v = what();
    if (v || Date.now() > end) return v;
    await sleep(50);
  }
}

describe('session: a launched browser never outlives its owner', function () {
  this.timeout(60_000);

  for (const profile of ['temporary', 'persistent'] as const) {
    it(`SIGKILL of the MCP server leaves 0 browser processes after 5 s (${profile} profile)`, async () => {
      const dir = profile === 'persistent' ? mkdtempSync(join(tmpdir(), 'ba-own-persistent-')) : undefined;
      const mcp = await startMcp([...HEADLESS_ARGS, ...(dir ? ['--user-data-dir', dir] : [])]);
      try {
        const r = await mcp.call('browser_navigate', { url: 'about:blank' });
        assert.equal(r.isError, false, r.text);
        const browser = launchedBrowserOf(mcp.pid);
        assert.ok(browser, 'the server launched a browser as its child');
        const before = browserProcesses({ pgid: browser.pid, profileDir: browser.profileDir });
        assert.ok(before.length >= 2, `the browser runs several processes (${before.length})`);
        process.kill(mcp.pid, 'SIGKILL');
        await sleep(5000);
        const left = browserProcesses({ pgid: browser.pid, profileDir: browser.profileDir });
        assert.deepEqual(left.map((p) => `${p.pid} ${p.cmdline.slice(0, 80)}`), [], 'no browser process is left 5 s after the SIGKILL');
        if (profile === 'temporary') assert.equal(existsSync(browser.profileDir), false, 'the temporary profile is deleted');
        else assert.ok(existsSync(join(dir!, 'Local State')) || existsSync(join(dir!, 'Default')), 'a persistent profile is kept');
      } finally {
        await mcp.close();
        if (dir) rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it('the watchdog leaves when the owner closes the browser itself, and touches nothing', async () => {
    const b = await launchBrowser(TEST_LAUNCH);
    assert.ok(b.watchdogPid, 'a watchdog runs beside the browser');
    assert.ok(processes().some((p) => p.pid === b.watchdogPid), 'the watchdog is alive');
    await b.kill();
    const gone = await waitFor(() => (processes().some((p) => p.pid === b.watchdogPid) ? undefined : true), 3000);
    assert.ok(gone, 'the watchdog exits after a normal close');
  });
});

describe('session: stale temporary profiles', () => {
  const made: string[] = [];
  function fakeProfile(owner: object | undefined, lockPid?: number): string {
    const dir = join(tmpdir(), `${TEMP_PROFILE_PREFIX}robusttest${made.length}${process.pid}`);
    mkdirSync(join(dir, 'Default'), { recursive: true });
    writeFileSync(join(dir, 'Default', 'Preferences'), '{}');
    if (owner) writeFileSync(join(dir, 'browser-agent-owner.json'), JSON.stringify(owner));
    if (lockPid) spawnSync('ln', ['-s', `${hostname()}-${lockPid}`, join(dir, 'SingletonLock')]);
    made.push(dir);
    return dir;
  }
  after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('are deleted when their owner and browser are dead, kept while either lives', () => {
    const dead = deadPid();
    const crashed = fakeProfile({ owner: dead, browser: dead, host: hostname() });
    const lockedDead = fakeProfile(undefined, dead);
    const live = fakeProfile({ owner: process.pid, browser: dead, host: hostname() });
    const lockedLive = fakeProfile(undefined, process.pid);
    const fresh = fakeProfile(undefined); // being created right now by another start
    const removed = cleanStaleProfiles();
    assert.ok(removed.includes(crashed) && !existsSync(crashed), 'a crashed owner’s profile is removed');
    assert.ok(removed.includes(lockedDead) && !existsSync(lockedDead), 'a profile whose browser lock is dead is removed');
    for (const keep of [live, lockedLive, fresh]) assert.ok(existsSync(keep), `${keep} is kept`);
  });

  it('are cleaned by the next launch', async () => {
    const dead = deadPid();
    const crashed = fakeProfile({ owner: dead, browser: dead, host: hostname() });
    const b = await launchBrowser(TEST_LAUNCH);
    try {
      assert.equal(existsSync(crashed), false, 'the launch removed the stale profile');
      assert.ok(existsSync(b.userDataDir), 'and kept its own');
    } finally {
      await b.kill();
    }
  });
});
