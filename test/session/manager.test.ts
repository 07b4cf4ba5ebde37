import assert from 'node:assert/strict';
import { SessionManager, type SessionSettings } from '../../src/session/manager';
import { groupAlive, sleep } from '../../src/session/launcher';
import { TEST_LAUNCH, startExternalChromium } from '../helpers/chromium';

describe('session: manager lifecycle', () => {
  it('detects a crashed browser and relaunches it on next use', async () => {
    const settings: SessionSettings = { mode: 'launch', launch: TEST_LAUNCH, cdpTimeoutMs: 5000 };
    const m = new SessionManager(() => settings);
    const statuses: string[] = [];
    m.on('status', (s) => statuses.push(s.state));
    try {
      const first = await m.ensure();
      const pid = first.pid!;
      const lost = new Promise((r) => m.once('disconnected', r));
      process.kill(-pid, 'SIGKILL');
      await lost;
      assert.deepEqual(m.status, { state: 'disconnected', reason: 'browser disconnected' }, 'lost, not failed to start');
      await assert.rejects(first.activeTab(), (e: any) => e.code === 'BROWSER_DISCONNECTED');
      const second = await m.ensure();
      assert.notEqual(second.pid, pid);
      assert.equal(await (await second.activeTab()).evaluate('"alive"'), 'alive');
      assert.deepEqual(statuses.slice(0, 2), ['starting', 'connected']);
      assert.ok(statuses.includes('disconnected'));
      assert.equal(statuses.at(-1), 'connected');
    } finally {
      await m.dispose();
    }
  });

  it('a launch that fails with no browser running says it failed to launch, not that a browser disconnected', async () => {
    const m = new SessionManager(() => ({ mode: 'launch', launch: { ...TEST_LAUNCH, executablePath: '/nonexistent/chrome' } }));
    try {
      await assert.rejects(m.ensure());
      assert.equal(m.status.state, 'disconnected');
      assert.equal((m.status as { failed?: string }).failed, 'launched');
    } finally {
      await m.dispose();
    }
  });

  it('shares one start-up between concurrent callers and leaves no process after dispose', async () => {
    const m = new SessionManager(() => ({ mode: 'launch', launch: TEST_LAUNCH }));
    const [x, y] = await Promise.all([m.ensure(), m.ensure()]);
    assert.equal(x, y);
    const pid = x.pid!;
    await m.dispose();
    assert.equal(groupAlive(pid), false);
  });

  it('reattaches in attach mode after the connection drops, and never kills that browser', async () => {
    const ext = await startExternalChromium();
    const m = new SessionManager(() => ({ mode: 'attach', launch: TEST_LAUNCH, attach: { endpoint: `http://127.0.0.1:${ext.port}` } }));
    try {
      const first = await m.ensure();
      assert.equal(first.kind, 'attached');
      first.connection.close(); // a network blip
      await sleep(50);
      const second = await m.ensure();
      assert.notEqual(first, second);
      assert.equal(second.kind, 'attached');
      await m.close();
      assert.ok(groupAlive(ext.pid), 'the attached browser is left running');
    } finally {
      await m.dispose();
      await ext.stop();
    }
  });
});
