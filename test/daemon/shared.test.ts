import assert from 'node:assert/strict';
import { mkdtempSync, promises as fs, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAuditHooks } from '../../src/audit/hooks';
import { loadTask } from '../../src/audit/reader';
import { AuditRecorder } from '../../src/audit/recorder';
import { daemonControl } from '../../src/daemon/client';
import { daemonPaths } from '../../src/daemon/paths';
import { describeSession } from '../../src/daemon/present';
import { daemonProvider } from '../../src/daemon/provider';
import { SessionManager } from '../../src/session/manager';
import { allTools } from '../../src/tools/registry';
import { runTool } from '../../src/runtime/runner';
import type { ToolContext } from '../../src/contract/types';
import { statusText } from '../../src/vscode/statusText';
import { TEST_LAUNCH } from '../helpers/chromium';
import { alive, DAEMON_BIN, daemonEnv, spawnMcp, until } from '../helpers/daemon';
import { startServer, type TestServer } from '../helpers/servers';
import { realDecider } from '../helpers/tools';

const tool = (name: string) => allTools.find((t) => t.name === name)!;

/**
 * What a VS Code window runs with browserAgent.connection.shared on: one SessionManager behind the
 * status bar, the Launch/Close commands, Copilot's tools and the chat panel, its browser from the
 * daemon provider. Two windows and an external MCP client share one browser, each in its own tab.
 */
describe('daemon: shared mode as the extension uses it (SessionManager + daemon provider + tools + audit, real daemon and Chromium)', function () {
  this.timeout(180_000);
  let srv: TestServer;
  let env: Record<string, string>;
  const windows: SessionManager[] = [];
  let auditRoot: string;
  let idleBefore: string | undefined;
  before(async () => {
    srv = await startServer({
      '/one': '<!doctype html><title>Window one</title><button onclick="this.textContent = \'done one\'">Sign in</button>',
      '/two': '<!doctype html><title>Window two</title><p>second window</p>',
      '/mcp': '<!doctype html><title>From MCP</title>',
    });
    env = daemonEnv(1500);
    // The daemon this process starts (window one's) inherits its idle time from our environment.
    idleBefore = process.env.BROWSER_AGENT_DAEMON_IDLE_MS;
    process.env.BROWSER_AGENT_DAEMON_IDLE_MS = '1500';
    auditRoot = mkdtempSync(join(tmpdir(), 'ba-shared-audit-'));
  });
  after(async () => {
    if (idleBefore === undefined) delete process.env.BROWSER_AGENT_DAEMON_IDLE_MS;
    else process.env.BROWSER_AGENT_DAEMON_IDLE_MS = idleBefore;
    for (const w of windows) await w.dispose().catch(() => {});
    await srv?.close();
    rmSync(auditRoot, { recursive: true, force: true });
  });

  function window(name: string): SessionManager {
    const provider = daemonProvider({ client: `VS Code: ${name}`, paths: daemonPaths(env), script: DAEMON_BIN });
    const w = new SessionManager(() => ({ mode: 'launch', launch: TEST_LAUNCH, provider }));
    windows.push(w);
    return w;
  }
  const ctxOf = (w: SessionManager): ToolContext => ({
    sessions: w,
    browser: () => w.ensure(),
    tab: async () => (await w.ensure()).activeTab(),
    settings: { allowedSchemes: [], downloadsDir: join(auditRoot, 'downloads'), maxWaitMs: 10_000 },
  });

  it('two windows and an MCP client share one browser, each in its own tab; audit screenshots work; Close ends only that window’s session', async () => {
    const one = window('one');
    const two = window('two');
    // "Launch Browser" in window one; window two's first tool call joins the same daemon.
    await one.launch();
    assert.equal(one.status.state, 'connected');
    assert.match(statusText(one.status).text, /Browser \(shared\):/);
    const mcp = await spawnMcp(env, undefined, 'agent');
    await mcp.call('browser_navigate', { url: `${srv.origin}/mcp` });

    // Window one: Copilot-style tool calls through the audit hooks, screenshots before/after a confirmed step.
    const recorder = new AuditRecorder({ root: auditRoot });
    const task = recorder.startTask('shared window task', { source: 'copilot' });
    // The real policy and decider, with clicks always asking; the test answers Allow in place of the modal.
    const hooks = createAuditHooks(recorder, { decide: realDecider(async () => 'allow', { alwaysConfirmTools: ['browser_click'] }).decide });
    const c1 = ctxOf(one);
    assert.equal((await runTool(tool('browser_navigate'), { url: `${srv.origin}/one` }, c1, hooks)).isError, undefined);
    const snap = (await runTool(tool('browser_snapshot'), {}, c1, hooks)).content[0];
    const ref = /\[([^\]]+)\] button "Sign in"/.exec((snap as { text: string }).text)![1];
    const click = await runTool(tool('browser_click'), { ref }, c1, hooks);
    assert.equal(click.isError, undefined, JSON.stringify(click.content));
    await recorder.endTask('success', 'done');
    const t = await loadTask(task.dir);
    const step = t.steps.find((s) => s.tool === 'browser_click')!;
    assert.ok(step.screenshots?.before && step.screenshots.after, `screenshots for the confirmed step: ${JSON.stringify(step)}`);
    for (const f of [step.screenshots!.before!, step.screenshots!.after!]) assert.equal((await fs.readFile(join(task.dir, f))).subarray(0, 2).toString('hex'), 'ffd8');

    const c2 = ctxOf(two);
    await runTool(tool('browser_navigate'), { url: `${srv.origin}/two` }, c2);
    // Each sees only its own tab, in the same browser.
    const tabs1 = (await one.ensure()).tabs();
    const tabs2 = (await two.ensure()).tabs();
    assert.deepEqual(tabs1.map((t) => t.title), ['Window one']);
    assert.deepEqual(tabs2.map((t) => t.title), ['Window two']);
    const list = await runTool(tool('browser_tabs'), { action: 'list' }, c2);
    assert.doesNotMatch((list.content[0] as { text: string }).text, /Window one|From MCP/);
    const st = await daemonControl('status', {}, { paths: daemonPaths(env) });
    assert.equal(st.browsers.length, 1);
    assert.deepEqual(st.sessions.map((s) => s.client).sort(), ['MCP: agent', 'VS Code: one', 'VS Code: two']);
    // The Sessions view's rows.
    const ownId = (await one.ensure()).sharedSessionId;
    const own = st.sessions.find((s) => s.id === ownId)!;
    const row = describeSession(own, Date.now(), own.id);
    assert.equal(row.label, 'VS Code: one (this window)');
    assert.match(row.description, /^Window one · \d+s ago$/);

    // "Focus" from the Sessions view brings window two's tab to front; "End" ends the MCP client's session.
    const mcpSession = st.sessions.find((s) => s.client === 'MCP: agent')!;
    assert.equal(await daemonControl('focus', { session: st.sessions.find((s) => s.client === 'VS Code: two')!.id }, { paths: daemonPaths(env) }), true);
    assert.equal(await daemonControl('endSession', { session: mcpSession.id }, { paths: daemonPaths(env) }), true);
    // Its tab is closed; its next call starts a new session with a fresh tab.
    const next = await mcp.call('browser_snapshot');
    assert.equal(next.isError, false, next.text);
    assert.doesNotMatch(next.text, /From MCP/);
    const renewed = (await daemonControl('status', {}, { paths: daemonPaths(env) })).sessions.find((s) => s.client === 'MCP: agent')!;
    assert.notEqual(renewed.id, mcpSession.id);
    assert.ok(!renewed.tabs.some((t) => t.title === 'From MCP'));

    // "Close Browser" in window one ends its session only: window two's page is still there.
    await one.close();
    assert.equal(one.status.state, 'none');
    const after = await daemonControl('status', {}, { paths: daemonPaths(env) });
    assert.deepEqual(after.sessions.map((s) => s.client).sort(), ['MCP: agent', 'VS Code: two']);
    assert.ok(alive(after.browsers[0].pid!));
    assert.match((await runTool(tool('browser_snapshot'), {}, c2)).content.map((c) => (c as { text: string }).text).join(), /second window/);

    await two.close();
    await mcp.close();
    await until(() => !alive(after.pid), 15_000, 'the daemon to exit when idle');
    assert.ok(!alive(after.browsers[0].pid!), 'its browser closed with it');
  });
});
