// --cdp-url through the session daemon: the first client works in the page the user has open, even
// with another CDP client attached to it (as with --no-daemon, test/mcp/attach.test.ts); a second
// client gets a tab of its own; ending the sessions leaves the user's browser and page alone.
import assert from 'node:assert/strict';
import { CdpConnection } from '../../src/session/cdp';
import { startExternalChromium, type ExternalBrowser } from '../helpers/chromium';
import { alive, daemonEnv, runDaemonCli, spawnMcp, until, type McpProc } from '../helpers/daemon';
import { startServer, type TestServer } from '../helpers/servers';

describe('daemon: --cdp-url works in the page the user has open (real daemon, real MCP clients, real Chromium)', function () {
  this.timeout(120_000);
  let ext: ExternalBrowser;
  let srv: TestServer;
  let other: CdpConnection;
  let pageId: string;
  let otherSession: string;
  const procs: McpProc[] = [];

  before(async () => {
    srv = await startServer({ '/mine': `<!doctype html><title>My page</title><h1>Hello from my page</h1><button onclick="document.title='clicked'">Press me</button>` });
    ext = await startExternalChromium();
    other = await CdpConnection.connect(ext.wsEndpoint, { timeoutMs: 10_000 });
  });
  after(async () => {
    for (const p of procs) await p.close().catch(() => {});
    other?.close();
    await ext?.stop();
    await srv?.close();
  });

  /**
   * The user's page, fresh and in front, the only one: an earlier run's page keeps the isolated world its agent
   * made even across reloads (which tells a new client that another Browser Agent works there). Another client
   * (DevTools, a test harness) stays attached to it for the whole run.
   */
  async function openUserPage() {
    const { targetId } = await other.send('Target.createTarget', { url: 'about:blank' });
    pageId = targetId;
    otherSession = (await other.send('Target.attachToTarget', { targetId, flatten: true })).sessionId;
    const s = other.session(otherSession);
    await s.send('Page.enable');
    const loaded = new Promise<void>((r) => s.on('Page.loadEventFired', () => r()));
    await s.send('Page.navigate', { url: srv.origin + '/mine' });
    await loaded;
    const listed = async () => (await other.send('Target.getTargets')).targetInfos.filter((t) => t.type === 'page');
    for (const t of await listed()) if (t.targetId !== pageId) await other.send('Target.closeTarget', { targetId: t.targetId });
    // closeTarget answers before the page is gone; a page still listed would be counted as one a client opened.
    await until(async () => (await listed()).length === 1, 10_000, 'the other pages to close');
    await other.send('Target.activateTarget', { targetId: pageId });
  }

  // default: the proxy transport (one DevTools connection); direct: a connection of each client's own.
  for (const transport of ['default', 'direct'] as const)
  it(`${transport}: the first client snapshots and clicks in that page; a second gets its own tab; ending both leaves the page`, async () => {
    const env = daemonEnv(1500, transport === 'default' ? undefined : transport);
    await openUserPage();
    const pages = async () => (await other.send('Target.getTargets')).targetInfos.filter((t) => t.type === 'page');
    const pagesAtStart = (await pages()).length;
    const args = ['--cdp-url', `http://127.0.0.1:${ext.port}`, '--audit-dir', 'off', '--allow-confirm-actions'];
    const first = await spawnMcp(env, args, 'first');
    procs.push(first);
    const snap = await first.call('browser_snapshot');
    assert.equal(snap.isError, false, snap.text);
    assert.match(snap.text, /Hello from my page/);
    const ref = /\[(\d+)\] button "Press me"/.exec(snap.text)?.[1];
    assert.ok(ref, snap.text);
    const click = await first.call('browser_click', { ref });
    assert.equal(click.isError, false, click.text);
    // The click happened in the user's page, seen through the other client.
    const title = await other.session(otherSession).send('Runtime.evaluate', { expression: 'document.title', returnByValue: true });
    assert.equal(title.result.value, 'clicked');
    assert.equal((await pages()).length, pagesAtStart, 'no tab of its own was opened');

    // The daemon lists the session as working in the user's page.
    const st = JSON.parse((await runDaemonCli(env, 'status', '--json')).stdout);
    assert.equal(st.browsers[0].kind, 'attached');
    assert.deepEqual(st.sessions[0].tabs.map((t: { id: string }) => t.id), [pageId]);

    assert.equal(st.sessions[0].transport, transport === 'default' ? 'proxy' : 'direct');

    // The daemon killed: the attached browser lives on, so the client re-registers with the next daemon
    // keeping its page, and its next call works there. A direct client keeps its own connection to the
    // browser: its link re-registers at once and no call fails. A proxy client's connection went with the
    // daemon: a call that starts before the client has noticed fails saying so, and the next works.
    process.kill(st.pid, 'SIGKILL');
    await until(() => !alive(st.pid), 5000, 'the daemon to die');
    let again = await first.call('browser_snapshot');
    if (transport === 'default' && again.isError) {
      assert.match(again.text, /^BROWSER_DISCONNECTED: The session daemon exited; the next call registers with a new one and goes on in the tabs/, again.text);
      again = await first.call('browser_snapshot');
    }
    assert.equal(again.isError, false, again.text);
    assert.match(again.text, /Hello from my page/);
    let st2: any;
    await until(async () => {
      const r = await runDaemonCli(env, 'status', '--json');
      st2 = r.code === 0 ? JSON.parse(r.stdout) : undefined;
      return !!st2?.running && st2.sessions.length === 1;
    }, 15_000, 'the client to re-register with a new daemon');
    assert.notEqual(st2.pid, st.pid);
    assert.deepEqual(st2.sessions[0].tabs.map((t: { id: string }) => t.id), [pageId], 'with the same page');

    // A second client never takes the page the first works in.
    const second = await spawnMcp(env, args, 'second');
    procs.push(second);
    const snap2 = await second.call('browser_snapshot');
    assert.equal(snap2.isError, false, snap2.text);
    assert.doesNotMatch(snap2.text, /Hello from my page/);
    assert.equal((await pages()).length, pagesAtStart + 1, 'the second client opened a tab of its own');

    // Both leave; the daemon exits after its idle time; the user's browser and page stay.
    await first.close();
    await second.close();
    await until(() => !alive(st2.pid), 15_000, 'the idle daemon to exit');
    assert.ok(alive(ext.pid), 'an attached browser is never closed');
    const left = await pages();
    assert.ok(left.some((t) => t.targetId === pageId), 'the user’s page is still open');
  });
});
