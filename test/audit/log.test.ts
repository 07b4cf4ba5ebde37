import assert from 'node:assert/strict';
import { mkdtempSync, promises as fs, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAuditHooks } from '../../src/audit/hooks';
import { loadTask, parseLog, listTasks, LOG_FILE } from '../../src/audit/reader';
import { AuditRecorder, type TaskRecorder } from '../../src/audit/recorder';
import { REDACTED } from '../../src/audit/types';
import type { Decider } from '../../src/safety/decider';
import { mapSecretSource, SecretVault } from '../../src/safety/secrets';
import { createToolPipeline } from '../../src/safety/pipeline';
import { SessionManager } from '../../src/session/manager';
import type { Tab } from '../../src/session/tab';
import { runTool } from '../../src/runtime/runner';
import type { ToolContext, ToolDefinition, ToolResult } from '../../src/contract/types';
import { TEST_LAUNCH } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';
import { realDecider, realTools, toolContext } from '../helpers/tools';
import { LOGIN_PAGE, DONE_PAGE, CHANGED_PAGE } from './pages';

const PASSWORD = 'hunter2-Very$ecret';
const ACCOUNT = 'ACCT-7788-9911-SECRET';

const textOf = (r: ToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** The chat panel's hooks as src/vscode/extension.ts builds them: its tool pipeline, recording into the run's task. */
function chatHooks(recorder: AuditRecorder, task: TaskRecorder, decider: Decider, vault: SecretVault) {
  return createToolPipeline({ decider, vault, record: (call) => createAuditHooks(recorder, { ...call, task }) }).hooks();
}

describe('audit: log of a multi-step task (real tools, policy, decider and vault)', function () {
  this.timeout(90_000);
  let sessions: SessionManager;
  let ctx: ToolContext;
  let server: TestServer;
  let root: string;
  let vault: SecretVault;
  let tools: Record<string, ToolDefinition>;
  let tab: Tab;
  const asked: string[] = [];

  before(async () => {
    server = await startServer({ '/login': LOGIN_PAGE, '/done': DONE_PAGE, '/account/changed': CHANGED_PAGE });
    sessions = new SessionManager(() => ({ mode: 'launch', launch: TEST_LAUNCH }));
    ctx = toolContext(sessions);
    tab = await (await sessions.ensure()).activeTab();
    root = mkdtempSync(join(tmpdir(), 'ba-audit-'));
    vault = new SecretVault(mapSecretSource({ ACCOUNT }));
    tools = Object.fromEntries(realTools(vault).map((t) => [t.name, t]));
  });
  after(async () => {
    await sessions?.close();
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('records every field, keeps passwords and secret values out (URLs included), and takes screenshots', async () => {
    const recorder = new AuditRecorder({ root });
    const task = recorder.startTask('Sign in to the shop', { model: 'test-model', provider: 'local', source: 'chat' });
    // The person answers Allow to every confirmation (the VS Code modal cannot be shown here).
    const decider = realDecider(async (req) => (asked.push(`${req.tool}: ${req.rating.rule}`), 'allow'), {}, vault);
    const hooks = chatHooks(recorder, task, decider, vault);
    const run = (name: string, input: unknown) => runTool(tools[name], input, ctx, hooks);

    await tab.refreshInfo();
    assert.equal((await run('browser_navigate', { url: `${server.url}login` })).isError, undefined);
    const snapText = textOf(await run('browser_snapshot', {}));
    const ref = (name: string) => new RegExp(`\\[(\\w+)\\] \\w+ "${name}"`).exec(snapText)![1];
    await run('browser_type', { ref: ref('Email'), text: 'ann@example.com' });
    await run('browser_type', { ref: ref('Password'), text: PASSWORD });
    await run('browser_type', { ref: ref('Account number'), text: '{{secret:ACCOUNT}}' });
    const bad = await run('browser_click', { ref: '9999' });
    assert.equal(bad.code, 'TARGET_NOT_FOUND');
    await run('browser_click', { ref: ref('Sign in') });
    await run('browser_snapshot', {});
    await recorder.endTask('success', 'Signed in');
    assert.ok(task.ended);
    assert.deepEqual(asked, ['browser_type: sensitive-field', 'browser_type: sensitive-field', 'browser_click: sensitive-target-on-sensitive-page']);

    const raw = readFileSync(join(task.dir, LOG_FILE), 'utf8');
    for (const v of [PASSWORD, encodeURIComponent(PASSWORD), ACCOUNT]) assert.ok(!raw.includes(v), `${v} leaked into the log`);
    const lines = raw.trimEnd().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.length, 10);

    const t = await loadTask(task.dir);
    assert.deepEqual(t.warnings, []);
    assert.equal(t.start?.goal, 'Sign in to the shop');
    assert.equal(t.start?.model, 'test-model');
    assert.equal(t.start?.provider, 'local');
    assert.equal(t.start?.source, 'chat');
    assert.equal(t.start?.taskId, task.id);
    assert.equal(t.end?.outcome, 'success');
    assert.equal(t.end?.steps, 8);
    assert.deepEqual(t.steps.map((x) => x.step), [1, 2, 3, 4, 5, 6, 7, 8]);
    for (const st of t.steps) {
      assert.ok(!Number.isNaN(Date.parse(st.ts)), 'timestamp');
      assert.equal(typeof st.durationMs, 'number');
      assert.ok(st.durationMs >= 0);
    }
    assert.ok(t.steps.every((x, i) => i === 0 || Date.parse(x.ts) >= Date.parse(t.steps[i - 1].ts)));

    const [nav, snap, email, pw, account, failed, click, after] = t.steps;
    assert.equal(nav.tool, 'browser_navigate');
    assert.deepEqual(nav.input, { url: `${server.url}login` });
    assert.equal(nav.before.url, 'about:blank');
    assert.equal(nav.after.url, `${server.url}login`);
    assert.equal(nav.after.title, 'Shop login');
    assert.deepEqual([nav.risk, nav.decision, nav.rule], ['notify', 'notified', 'sensitive-url']);
    assert.equal(nav.ok, true);
    assert.match(nav.result!, /Navigated to .*\/login/);
    assert.ok(nav.screenshots?.after, 'notify steps get screenshots');
    assert.deepEqual([snap.tool, snap.risk, snap.decision, snap.screenshots], ['browser_snapshot', 'auto', 'auto', undefined]);

    assert.deepEqual(email.input, { ref: ref('Email'), text: 'ann@example.com' });
    assert.deepEqual(
      { role: email.target?.role, name: email.target?.name, selector: email.target?.selector, xpath: email.target?.xpath, frame: email.target?.frame, frameId: email.target?.frameId },
      { role: 'textbox', name: 'Email', selector: '#email', xpath: '/html/body/form/p[1]/label/input', frame: 'main', frameId: tab.targetId },
    );
    assert.equal(email.before.title, 'Shop login');

    assert.equal((pw.input as any).text, REDACTED);
    assert.equal(pw.target?.name, 'Password');
    assert.deepEqual([pw.risk, pw.decision, pw.rule], ['confirm', 'allowed', 'sensitive-field']);
    assert.match(pw.action!, /Password/);
    assert.match(pw.result!, /^Typed \d+ characters \(hidden\) into textbox "Password"/);
    // A {{secret:NAME}} placeholder is a name, not a value: kept (replay resolves it again), its value scrubbed.
    assert.equal((account.input as any).text, '{{secret:ACCOUNT}}');
    assert.equal(account.target?.name, 'Account number');
    assert.deepEqual([account.risk, account.decision], ['confirm', 'allowed']);

    for (const st of [pw, account, click]) {
      assert.ok(st.screenshots?.before && st.screenshots.after, `screenshots for step ${st.step}`);
      for (const f of [st.screenshots!.before!, st.screenshots!.after!]) {
        const img = await fs.readFile(join(task.dir, f));
        assert.equal(img.subarray(0, 2).toString('hex'), 'ffd8', `${f} is a JPEG`);
      }
    }
    assert.equal(pw.screenshots?.before, 'step-0004-before.jpg');

    assert.equal(failed.ok, false);
    assert.equal(failed.errorCode, 'TARGET_NOT_FOUND');
    assert.match(failed.result!, /TARGET_NOT_FOUND/);

    assert.equal(click.tool, 'browser_click');
    assert.deepEqual({ role: click.target?.role, name: click.target?.name, selector: click.target?.selector }, { role: 'button', name: 'Sign in', selector: '#go' });
    assert.deepEqual([click.risk, click.decision, click.rule], ['confirm', 'allowed', 'sensitive-target-on-sensitive-page']);
    assert.equal(click.before.url, `${server.url}login`);
    // The GET form put the password and the secret into the URL; the log has them scrubbed there too.
    for (const st of [click, after]) {
      const url = new URL(st.after.url!);
      assert.equal(url.pathname, '/done');
      assert.equal(url.searchParams.get('email'), 'ann@example.com');
      assert.equal(url.searchParams.get('pw'), REDACTED);
      // Scrubbed by the vault (its label) or by the audit (REDACTED), whichever saw it first.
      assert.ok([REDACTED, '{{secret:ACCOUNT}}'].includes(url.searchParams.get('account')!), st.after.url);
    }
    assert.equal(click.after.title, 'Welcome');
    assert.equal(after.ok, true);
    assert.match(after.result!, /Signed in/);
  });

  it('records refused steps with their rule and does not run them', async () => {
    const recorder = new AuditRecorder({ root });
    const task = recorder.startTask('Try the changed page');
    // "Delete account" on an account page: the policy asks, the person refuses.
    const decider = realDecider(async () => 'refuse', {}, vault);
    const hooks = chatHooks(recorder, task, decider, vault);
    await runTool(tools.browser_navigate, { url: `${server.url}account/changed` }, ctx, hooks);
    const snapText = textOf(await runTool(tools.browser_snapshot, {}, ctx, hooks));
    const ref = /\[(\w+)\] button "Delete account"/.exec(snapText)![1];
    const r = await runTool(tools.browser_click, { ref }, ctx, hooks);
    assert.equal(r.code, 'BLOCKED_BY_POLICY');
    await task.end('failure');
    const t = await loadTask(task.dir);
    const step = t.steps[2];
    assert.equal(step.tool, 'browser_click');
    assert.equal(step.decision, 'refused');
    assert.equal(step.rule, 'sensitive-target-on-sensitive-page');
    assert.equal(step.errorCode, 'BLOCKED_BY_POLICY');
    assert.ok(step.screenshots?.before, 'the page the person refused to act on is kept');
    assert.equal(step.before.url, `${server.url}account/changed`, 'state from before the handler is matched to its step through a copied event');
    assert.equal(step.screenshots?.after, undefined);
    assert.equal(step.after.url, `${server.url}account/changed`);
    assert.equal(await tab.evaluate('location.pathname'), '/account/changed', 'the form was not submitted');
  });

  it('puts calls without a task into one implicit task per process', async () => {
    const recorder = new AuditRecorder({ root, screenshots: false });
    const hooks = createAuditHooks(recorder, { implicit: { source: 'mcp', per: 'process' } });
    await runTool(tools.browser_snapshot, {}, ctx, hooks);
    await runTool(tools.browser_snapshot, {}, ctx, hooks);
    const t1 = recorder.implicitTask({ source: 'mcp', per: 'process' });
    await recorder.dispose();
    const t = await loadTask(t1.dir);
    assert.equal(t.start?.implicit, true);
    assert.equal(t.start?.source, 'mcp');
    assert.match(t.start!.goal, /MCP client session/);
    assert.equal(t.steps.length, 2);
    assert.equal(t.end?.outcome, 'ended');
    const list = await listTasks(root);
    assert.ok(list.some((x) => x.id === t1.id && x.steps === 2));
  });

  it('loads a log cut off mid-line (a crash while writing) and says so', async () => {
    const [latest] = (await listTasks(root)).filter((x) => x.goal === 'Sign in to the shop');
    const text = readFileSync(join(latest.dir, LOG_FILE), 'utf8');
    const lines = text.trimEnd().split('\n');
    // Crash while writing step 5: task_start and steps 1–4 whole, half of line 6, no end event.
    const cut = lines.slice(0, 5).join('\n') + '\n' + lines[5].slice(0, Math.floor(lines[5].length / 2));
    const crashDir = join(root, 'crashed-task');
    await fs.mkdir(crashDir);
    await fs.writeFile(join(crashDir, LOG_FILE), cut);
    const t = await loadTask(crashDir);
    assert.equal(t.truncated, true);
    assert.equal(t.steps.length, 4);
    assert.equal(t.start?.goal, 'Sign in to the shop');
    assert.equal(t.end, undefined);
    assert.ok(t.warnings.some((w) => /incomplete/.test(w)));
    assert.ok(t.warnings.some((w) => /no end event/.test(w)));
    const listed = (await listTasks(root)).find((x) => x.dir === crashDir);
    assert.equal(listed?.truncated, true);
    // A corrupt line in the middle is skipped too, without losing the ones after it.
    const mid = parseLog(lines[0] + '\n{"type":"step",\n' + lines[1] + '\n');
    assert.equal(mid.steps.length, 1);
    assert.ok(mid.warnings.some((w) => /Line 2/.test(w)));
  });
});
