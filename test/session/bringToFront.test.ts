// Bring to Front outside the session daemon's Sessions view (issue 33): agents work in background tabs and
// never take the person's tab; when the person asks, BrowserSession.bringToFront selects the agent's tab in its
// window. Real Chromium started by the test as a person's browser, attached to in this process (--no-daemon,
// the extension's own session) and through the daemon (its default transport for an attached browser).
import assert from 'node:assert/strict';
import { BrowserSession } from '../../src/session/browserSession';
import { CdpConnection } from '../../src/session/cdp';
import { daemonPaths } from '../../src/daemon/paths';
import { daemonProvider } from '../../src/daemon/provider';
import { startExternalChromium, type ExternalBrowser } from '../helpers/chromium';
import { DAEMON_BIN, daemonEnv } from '../helpers/daemon';
import { startServer, type TestServer } from '../helpers/servers';

describe('session: Bring to Front only when asked (real Chromium, in-process and through the daemon)', function () {
  this.timeout(90_000);
  let ext: ExternalBrowser;
  let srv: TestServer;
  let person: CdpConnection;

  before(async () => {
    srv = await startServer({ '/mine': '<!doctype html><title>Mine</title><p>The person reads this</p>', '/agent': '<!doctype html><title>Agent page</title><p>Agent</p>' });
    ext = await startExternalChromium();
    person = await CdpConnection.connect(ext.wsEndpoint, { timeoutMs: 10_000 });
  });
  after(async () => {
    person?.close();
    await ext?.stop();
    await srv?.close();
  });

  /** The person's page in front, and how it looks from inside. */
  async function personsPage() {
    const { targetId } = await person.send('Target.createTarget', { url: `${srv.origin}/mine` });
    await person.send('Target.activateTarget', { targetId });
    const { sessionId } = await person.send('Target.attachToTarget', { targetId, flatten: true });
    const visibility = async () => (await person.send('Runtime.evaluate', { expression: 'document.visibilityState', returnByValue: true }, sessionId)).result.value as string;
    for (let i = 0; i < 50 && (await visibility()) !== 'visible'; i++) await new Promise((r) => setTimeout(r, 100));
    return { targetId, visibility };
  }

  for (const mode of ['in-process', 'daemon'] as const)
    it(`${mode}: the agent's own tab stays behind the person's until bringToFront, which selects it`, async () => {
      const mine = await personsPage();
      const handle =
        mode === 'in-process'
          ? undefined
          : await daemonProvider({ client: 'test (bring to front)', paths: daemonPaths(daemonEnv(1500)), script: DAEMON_BIN }).attach(ext.wsEndpoint, { attachTab: 'new' });
      const s = handle ? await BrowserSession.open(handle, 'new') : await BrowserSession.attach(ext.wsEndpoint, { attachTab: 'new' });
      try {
        const tab = await s.activeTab();
        await (await tab.session()).send('Page.navigate', { url: `${srv.origin}/agent` });
        await new Promise((r) => setTimeout(r, 300));
        assert.equal(await mine.visibility(), 'visible', 'the agent working leaves the person’s tab in front');
        const front = await s.bringToFront();
        assert.equal(front.targetId, tab.targetId);
        let v = await mine.visibility();
        for (let i = 0; i < 50 && v !== 'hidden'; i++) {
          await new Promise((r) => setTimeout(r, 100));
          v = await mine.visibility();
        }
        assert.equal(v, 'hidden', 'the agent’s tab is the selected one of the window now');
      } finally {
        await s.close();
        await person.send('Target.closeTarget', { targetId: mine.targetId }).catch(() => undefined);
      }
    });
});
