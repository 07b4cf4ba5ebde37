import assert from 'node:assert/strict';
import { SessionManager } from '../../src/session/manager';
import { groupAlive } from '../../src/session/launcher';
import { TEST_LAUNCH } from '../helpers/chromium';

describe('session: replacing a running browser', () => {
  it('a failed attach keeps the running browser, connected, and says so in the status', async () => {
    const m = new SessionManager(() => ({ mode: 'launch', launch: TEST_LAUNCH, cdpTimeoutMs: 5000 }));
    try {
      const first = await m.launch();
      await assert.rejects(m.attach('http://127.0.0.1:1'), (e: any) => e.code === 'ATTACH_FAILED');
      assert.equal(m.current, first, 'the running browser is still the session');
      assert.equal(m.status.state, 'connected');
      assert.equal(groupAlive(first.pid!), true);
      assert.equal(await (await first.activeTab()).evaluate('"still here"'), 'still here');
    } finally {
      await m.dispose();
    }
  });

  it('a successful launch closes the old browser only once the new one is connected', async () => {
    const m = new SessionManager(() => ({ mode: 'launch', launch: TEST_LAUNCH, cdpTimeoutMs: 5000 }));
    try {
      const first = await m.launch();
      let oldAliveWhileStarting: boolean | undefined;
      m.on('status', (s) => s.state === 'starting' && (oldAliveWhileStarting = first.connected));
      const second = await m.launch();
      assert.equal(oldAliveWhileStarting, true, 'the old browser was still connected while the new one started');
      assert.notEqual(second.pid, first.pid);
      assert.equal(first.connected, false);
      for (let i = 0; i < 50 && groupAlive(first.pid!); i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(groupAlive(first.pid!), false, 'the old browser was closed');
      assert.equal(m.current, second);
    } finally {
      await m.dispose();
    }
  });
});
