// A page an agent left is free again (issue 33): its isolated world stays in the page, but a world of a process
// of this machine that exited (or was killed), or whose session closed while the process lives on, no longer makes
// the page look taken, so the next server works in the person's page instead of a tab of its own. A live agent's
// page is never taken, whatever worlds a careless or hostile client adds to it.
// Real parts: the MCP server bin over stdio (with and without the session daemon), the SDK client, headless
// Chromium, pages on 127.0.0.1.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CdpConnection } from '../../src/session/cdp';
import { startExternalChromium, type ExternalBrowser } from '../helpers/chromium';
import { alive, daemonEnv, spawnMcp, until, type McpProc } from '../helpers/daemon';
import { startServer, type TestServer } from '../helpers/servers';

describe('mcp: a page an agent left is the next agent’s (real MCP servers, real Chromium)', function () {
  this.timeout(180_000);
  let srv: TestServer;
  let ext: ExternalBrowser;
  let person: CdpConnection;
  const procs: McpProc[] = [];

  before(async () => {
    srv = await startServer({ '/person': `<!doctype html><title>Person</title><h1>The person's page</h1>` });
    ext = await startExternalChromium();
    person = await CdpConnection.connect(ext.wsEndpoint, { timeoutMs: 10_000 });
  });
  afterEach(async () => {
    for (const p of procs.splice(0)) await p.close().catch(() => undefined);
  });
  after(async () => {
    person?.close();
    await ext?.stop();
    await srv?.close();
  });

  const pages = async () => (await person.send('Target.getTargets')).targetInfos.filter((t) => t.type === 'page');

  /** A fresh person's page in front, the only one. */
  async function personPage(): Promise<string> {
    const { targetId } = await person.send('Target.createTarget', { url: srv.origin + '/person' });
    for (const t of await pages()) if (t.targetId !== targetId) await person.send('Target.closeTarget', { targetId: t.targetId }).catch(() => undefined);
    await until(async () => (await pages()).length === 1, 10_000, 'the other pages to close');
    await person.send('Target.activateTarget', { targetId });
    return targetId;
  }

  /** The names of the isolated worlds in a page (what the next agent's look sees). */
  async function worldsIn(targetId: string): Promise<string[]> {
    const { sessionId } = await person.send('Target.attachToTarget', { targetId, flatten: true });
    const names: string[] = [];
    const off = person.session(sessionId).on('Runtime.executionContextCreated', (e) => names.push(e.context.name));
    await person.send('Runtime.enable', undefined, sessionId);
    off();
    await person.send('Target.detachFromTarget', { sessionId });
    return names.filter((n) => n.startsWith('browser-agent'));
  }

  type Mode = 'in-process' | 'daemon';
  const start = (mode: Mode, name: string, env: Record<string, string> = { ...(process.env as Record<string, string>) }) => {
    const args = ['--cdp-url', `http://127.0.0.1:${ext.port}`, '--audit-dir', 'off', '--allow-confirm-actions', ...(mode === 'in-process' ? ['--no-daemon'] : [])];
    return spawnMcp(env, args, name).then((p) => (procs.push(p), p));
  };
  const snapshot = async (p: McpProc) => {
    const r = await p.call('browser_snapshot');
    assert.equal(r.isError, false, r.text);
    return r.text;
  };

  for (const mode of ['in-process', 'daemon'] as const)
    for (const leave of ['exits', 'is killed (SIGKILL)', 'closes its session, its process lives on'] as const)
      it(`${mode}: an agent in the person’s page ${leave}; the next agent works in that page`, async () => {
        const env = mode === 'daemon' ? daemonEnv(1500) : undefined;
        const pageId = await personPage();
        const first = await start(mode, 'first', env);
        assert.match(await snapshot(first), /The person's page/);
        assert.ok((await worldsIn(pageId)).length > 0, 'the first agent left its world in the page');
        const pid = first.process.pid!;
        if (leave === 'exits') {
          await first.close();
          await until(() => !alive(pid), 10_000, 'the first server to exit');
        } else if (leave === 'is killed (SIGKILL)') {
          first.process.kill('SIGKILL');
          await until(() => !alive(pid), 10_000, 'the first server to die');
        } else {
          const closed = await first.call('browser_close');
          assert.equal(closed.isError, false, closed.text);
        }
        const second = await start(mode, 'second', env);
        const text = await snapshot(second);
        assert.match(text, /The person's page/, 'the second agent works in the page the first left');
        assert.equal((await pages()).length, 1, 'no tab of its own was opened');
        if (leave === 'closes its session, its process lives on') assert.ok(alive(pid), 'the first server still runs');
      });

  it('a live agent’s page is never taken: not by worlds faking a gone agent, nor by garbage names, nor without claim files', async () => {
    const pageId = await personPage();
    const first = await start('in-process', 'first');
    assert.match(await snapshot(first), /The person's page/);
    const [own] = await worldsIn(pageId);
    const m = /^browser-agent:([0-9a-z]+)\.([0-9a-f]{6})\.([0-9a-f]{6})/.exec(own);
    assert.ok(m, own);
    // Another client adds worlds named as if a gone agent of this machine, an agent of another machine, or
    // nonsense made them (a page itself cannot make isolated worlds).
    const { sessionId } = await person.send('Target.attachToTarget', { targetId: pageId, flatten: true });
    const gone = (999_999_999).toString(36);
    for (const worldName of [`browser-agent:${m[1]}.${m[2] === '000000' ? '111111' : '000000'}.abcdef`, 'browser-agent:', 'browser-agent:zz', `browser-agent:${gone}.${m[2]}`, `browser-agent:${gone}.${m[2]}.abcdef`])
      await person.send('Page.createIsolatedWorld', { frameId: pageId, worldName }, sessionId);
    await person.send('Target.detachFromTarget', { sessionId });
    // The next agent cannot see the first's claim files (a temp folder of its own): only the worlds tell.
    const apart = { ...(process.env as Record<string, string>), TMPDIR: mkdtempSync(join(tmpdir(), 'ba-apart-')) };
    const second = await start('in-process', 'second', apart);
    assert.doesNotMatch(await snapshot(second), /The person's page/, 'the second agent opened a tab of its own');
    assert.equal((await pages()).length, 2);
  });

  it('a world of another machine’s agent, of an older version or with a name we cannot read keeps its page taken', async () => {
    const [, tag] = /^browser-agent:[0-9a-z]+\.([0-9a-f]{6})\./.exec(await ownWorldName())!;
    const gone = (999_999_999).toString(36);
    // A pid that is gone here may be a live agent there: only this machine's pids can be checked.
    for (const worldName of [`browser-agent:${gone}.${tag === '000000' ? '111111' : '000000'}.abcdef`, `browser-agent:${gone}abcdef`, 'browser-agent:zz']) {
      const pageId = await personPage();
      const { sessionId } = await person.send('Target.attachToTarget', { targetId: pageId, flatten: true });
      await person.send('Page.createIsolatedWorld', { frameId: pageId, worldName }, sessionId);
      await person.send('Target.detachFromTarget', { sessionId });
      const agent = await start('in-process', 'next');
      assert.doesNotMatch(await snapshot(agent), /The person's page/, `a page with the world ${worldName} was taken`);
      assert.equal((await pages()).length, 2);
      await agent.close();
      procs.splice(procs.indexOf(agent), 1);
    }
  });

  /** A world name an agent of this machine makes (its machine tag). */
  async function ownWorldName(): Promise<string> {
    const pageId = await personPage();
    const agent = await start('in-process', 'tag');
    await snapshot(agent);
    const [name] = await worldsIn(pageId);
    await agent.close();
    procs.splice(procs.indexOf(agent), 1);
    return name;
  }
});
