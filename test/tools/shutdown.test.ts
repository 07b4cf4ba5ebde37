// The extension host shutting down (deactivate) while a task runs, with the parts deactivate closes: the
// real SessionManager (a browser launched in this process, or a session in the real daemon), the real audit
// recorder and hooks, tools through runTool, real Chromium. The launched browser must be gone, nothing may
// start another, the daemon must release the tab, and the audit log must end with a closing record after
// the step that was cut short. (src/vscode/extension.ts's deactivate calls this shutdown; the VS Code host itself is
// the e2e suite's.)
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAuditHooks } from '../../src/audit/hooks';
import { AuditRecorder } from '../../src/audit/recorder';
import { daemonPaths } from '../../src/daemon/paths';
import { daemonProvider } from '../../src/daemon/provider';
import { SessionManager } from '../../src/session/manager';
import { sleep } from '../../src/session/launcher';
import { allTools } from '../../src/tools/registry';
import { runTool } from '../../src/runtime/runner';
import { shutdown } from '../../src/runtime/shutdown';
import { TEST_LAUNCH } from '../helpers/chromium';
import { DAEMON_BIN, daemonEnv, runDaemonCli, until } from '../helpers/daemon';
import { browserProcesses, launchedBrowserOf } from '../helpers/procs';
import { startServer, type TestServer } from '../helpers/servers';
import { toolContext } from '../helpers/tools';

const tool = (name: string) => allTools.find((t) => t.name === name)!;

describe('vscode: shutdown (deactivate) while a task runs (real SessionManager, audit, daemon, Chromium)', function () {
  this.timeout(120_000);
  let srv: TestServer;
  let auditRoot: string;
  before(async () => {
    srv = await startServer({ '/': '<!doctype html><title>Work</title><h1>Work in progress</h1>' });
    auditRoot = mkdtempSync(join(tmpdir(), 'ba-shutdown-audit-'));
  });
  after(async () => {
    await srv?.close();
    rmSync(auditRoot, { recursive: true, force: true });
  });

  async function runTaskAndShutDown(sessions: SessionManager) {
    const recorder = new AuditRecorder({ root: auditRoot, screenshots: false });
    const task = recorder.startTask('read the page', { source: 'chat' });
    const hooks = createAuditHooks(recorder, { task });
    const ctx = toolContext(sessions, { maxWaitMs: 30_000 });
    const nav = await runTool(tool('browser_navigate'), { url: srv.url }, ctx, hooks);
    assert.equal(nav.isError, undefined, JSON.stringify(nav.content));
    const cut = runTool(tool('browser_wait'), { text: 'never shows up', timeoutMs: 30_000 }, ctx, hooks);
    await sleep(700);
    const t0 = Date.now();
    await shutdown({ sessions, audit: recorder });
    const shutdownMs = Date.now() - t0;
    const cutResult = await cut;
    // The agent loop's next call, after the shutdown.
    const next = await runTool(tool('browser_snapshot'), {}, ctx, hooks);
    const lines = readFileSync(join(task.dir, 'log.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    return { shutdownMs, cutResult, next, lines };
  }

  it('launched in-process: the browser is closed and its profile deleted, nothing relaunches, the log ends with task_end after the cut step', async () => {
    const sessions = new SessionManager(() => ({ mode: 'launch', launch: TEST_LAUNCH }));
    await sessions.ensure();
    const browser = launchedBrowserOf(process.pid)!;
    assert.ok(browser, 'a browser of this process runs');
    const { shutdownMs, cutResult, next, lines } = await runTaskAndShutDown(sessions);
    assert.ok(shutdownMs < 15_000, `shutdown took ${shutdownMs} ms`);
    assert.equal(cutResult.isError, true);
    assert.match((cutResult.content[0] as { text: string }).text, /^BROWSER_DISCONNECTED: /);
    // Before: the next call launched a new browser after the extension was gone.
    assert.equal(next.isError, true);
    assert.match((next.content[0] as { text: string }).text, /^BROWSER_DISCONNECTED: Browser Agent is shutting down/);
    await sleep(500);
    assert.equal(launchedBrowserOf(process.pid), undefined, 'no browser was started after the shutdown');
    assert.deepEqual(browserProcesses({ pgid: browser.pid, profileDir: browser.profileDir }), [], 'the launched browser is gone');
    assert.equal(existsSync(browser.profileDir), false, 'its temporary profile is deleted');
    // Before: the task was closed first, so the cut step was never written (recordStep on an ended task).
    const types = lines.map((l) => (l.type === 'step' ? `step ${l.tool}` : l.type));
    assert.deepEqual(types, ['task_start', 'step browser_navigate', 'step browser_wait', 'task_end'], JSON.stringify(types));
    assert.equal(lines.at(-1).outcome, 'interrupted');
    assert.equal(lines[2].ok, false);
  });

  it('through the session daemon: the session ends and its tab is released, the daemon’s browser stays for others', async () => {
    const env = daemonEnv(60_000);
    const provider = daemonProvider({ client: 'VS Code: shutting down', paths: daemonPaths(env), script: DAEMON_BIN });
    const sessions = new SessionManager(() => ({ mode: 'launch', launch: TEST_LAUNCH, provider }));
    await sessions.ensure();
    const status = async () => JSON.parse((await runDaemonCli(env, 'status', '--json')).stdout);
    const before = await status();
    assert.equal(before.sessions.length, 1);
    try {
      const { cutResult, next, lines } = await runTaskAndShutDown(sessions);
      assert.equal(cutResult.isError, true);
      assert.equal(next.isError, true);
      assert.match((next.content[0] as { text: string }).text, /shutting down/);
      assert.equal(lines.at(-1).type, 'task_end');
      await until(async () => (await status()).sessions.length === 0, 10_000, 'the daemon to end the session');
      const after = await status();
      assert.equal(after.browsers[0].pid, before.browsers[0].pid, 'the shared browser is not the window’s to close');
      // The daemon closed the session's tab: the browser has no page of that session left.
      const pages = await fetch(`http://127.0.0.1:${new URL(after.browsers[0].endpoint).port}/json/list`).then((r) => r.json() as Promise<{ type: string; url: string }[]>);
      assert.equal(pages.filter((p) => p.type === 'page' && p.url.startsWith(srv.url)).length, 0, JSON.stringify(pages));
    } finally {
      await runDaemonCli(env, 'stop');
    }
  });
});
