import assert from 'node:assert/strict';
import { existsSync, readlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BrowserSession } from '../../src/session/browserSession';
import { groupAlive, launchBrowser } from '../../src/session/launcher';
import { TEST_LAUNCH } from '../helpers/chromium';

describe('session: launch', () => {
  it('launches headless Chromium on a port of its own choosing and kills the whole process group on close', async () => {
    const a = await BrowserSession.launch(TEST_LAUNCH);
    const b = await BrowserSession.launch(TEST_LAUNCH);
    let socketDirs: string[] = [];
    try {
      assert.equal(a.kind, 'launched');
      assert.match(a.endpoint, /^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\//);
      assert.notEqual(a.endpoint, b.endpoint, 'two launches never share a port');
      const tab = await a.activeTab();
      assert.equal(await tab.evaluate('1 + 1'), 2);
      assert.ok(a.userDataDir && existsSync(a.userDataDir));
      // Chromium keeps its singleton socket in a folder of its own in the temp directory.
      socketDirs = [a, b].map((s) => dirname(readlinkSync(join(s.userDataDir!, 'SingletonSocket'))));
      assert.ok(socketDirs.every((d) => existsSync(d)));
    } finally {
      await a.close();
      await b.close();
    }
    assert.equal(groupAlive(a.pid!), false, 'no process of the first browser is left');
    assert.equal(groupAlive(b.pid!), false, 'no process of the second browser is left');
    assert.equal(existsSync(a.userDataDir!), false, 'the temporary profile is deleted');
    for (const d of socketDirs) assert.equal(existsSync(d), false, `the browser's socket folder ${d} is left in the temp directory`);
  });

  it('keeps a persistent profile folder when one is given', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'ba-persistent-'));
    const s = await BrowserSession.launch({ ...TEST_LAUNCH, userDataDir: dir });
    await s.close();
    assert.ok(existsSync(join(dir, 'Default')) || existsSync(join(dir, 'Local State')), 'profile content stays');
    rmSync(dir, { recursive: true, force: true });
  });

  it('explains a missing executable in plain words', async () => {
    await assert.rejects(launchBrowser({ executablePath: '/nope/chrome' }), (e: any) => e.code === 'LAUNCH_FAILED' && /does not exist/.test(e.message));
  });

  it('reports a browser that exits during start-up', async () => {
    await assert.rejects(launchBrowser({ executablePath: '/bin/false', startTimeoutMs: 5000 }), (e: any) => e.code === 'LAUNCH_FAILED' && /exited/.test(e.message));
  });
});
