import assert from 'node:assert/strict';
import { mkdtempSync, promises as fs, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAuditHooks } from '../../src/audit/hooks';
import { loadTask, parseLog, listTasks, LOG_FILE } from '../../src/audit/reader';
import { AuditRecorder } from '../../src/audit/recorder';
import { REDACTED } from '../../src/audit/types';
import { BrowserSession } from '../../src/session/browserSession';
import { runTool } from '../../src/tools/runner';
import { TEST_LAUNCH } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';
import { clickTool, contextFor, navigateTool, refFor, SECRETS, snapshotTool, testDecider, typeTool, withSecretPlaceholders } from './fixtures';
import { LOGIN_PAGE, DONE_PAGE, CHANGED_PAGE } from './pages';

const PASSWORD = 'hunter2-Very$ecret';
const API_KEY = 'sk-live-abc123XYZ';

describe('audit: log of a multi-step task', function () {
  this.timeout(60_000);
  let s: BrowserSession;
  let server: TestServer;
  let root: string;

  before(async () => {
    server = await startServer({ '/login': LOGIN_PAGE, '/done': DONE_PAGE, '/changed': CHANGED_PAGE });
    s = await BrowserSession.launch(TEST_LAUNCH);
    root = mkdtempSync(join(tmpdir(), 'ba-audit-'));
  });
  after(async () => {
    await s?.close();
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('records every field, redacts the password and the secret-placeholder value, and takes screenshots', async () => {
    const recorder = new AuditRecorder({ root });
    const ctx = contextFor(s);
    const task = recorder.startTask('Sign in to the shop', { model: 'test-model', provider: 'local', source: 'chat' });
    const hooks = createAuditHooks(recorder, { decide: testDecider(), knownSecrets: () => Object.values(SECRETS) });
    const tab = await s.activeTab();

    assert.equal((await runTool(navigateTool, { url: `${server.url}login` }, ctx, hooks)).isError, undefined);
    await runTool(typeTool, { ref: await refFor(tab, '#email'), text: 'ann@example.com' }, ctx, hooks);
    await runTool(typeTool, { ref: await refFor(tab, '#pw'), text: PASSWORD }, ctx, hooks);
    await runTool(typeTool, { ref: await refFor(tab, '#key'), text: API_KEY }, ctx, hooks);
    await runTool(withSecretPlaceholders(typeTool), { ref: await refFor(tab, '#account'), text: '{{secret:ACCOUNT}}' }, ctx, hooks);
    const bad = await runTool(clickTool, { ref: 'n999999' }, ctx, hooks);
    assert.equal(bad.code, 'STALE_REF');
    await runTool(clickTool, { ref: await refFor(tab, '#go') }, ctx, hooks);
    await runTool(snapshotTool, {}, ctx, hooks);
    await recorder.endTask('success', 'Signed in');
    assert.ok(task.ended);

    const raw = readFileSync(join(task.dir, LOG_FILE), 'utf8');
    assert.ok(!raw.includes(PASSWORD), 'password leaked into the log');
    assert.ok(!raw.includes(API_KEY), 'API key leaked into the log');
    assert.ok(!raw.includes(encodeURIComponent(PASSWORD)), 'URL-encoded password leaked into the log');
    assert.ok(!raw.includes(SECRETS.ACCOUNT), 'the value behind {{secret:ACCOUNT}} leaked into the log');
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

    const [nav, email, pw, key, account, failed, click, snap] = t.steps;
    assert.equal(nav.tool, 'browser_navigate');
    assert.deepEqual(nav.input, { url: `${server.url}login` });
    assert.equal(nav.before.url, 'about:blank');
    assert.equal(nav.after.url, `${server.url}login`);
    assert.equal(nav.after.title, 'Shop login');
    assert.equal(nav.risk, 'auto');
    assert.equal(nav.decision, 'auto');
    assert.equal(nav.ok, true);
    assert.match(nav.result!, /Opened .*Shop login/);
    assert.equal(nav.screenshots, undefined, 'no screenshots for auto steps');

    assert.deepEqual(email.input, { ref: email.input && (email.input as any).ref, text: 'ann@example.com' });
    assert.equal(email.redacted, undefined);
    assert.equal(email.target?.role, 'textbox');
    assert.equal(email.target?.name, 'Email');
    assert.equal(email.target?.selector, '#email');
    assert.equal(email.target?.xpath, '/html/body[1]/form[1]/p[1]/label[1]/input[1]');
    assert.equal(email.target?.frame, tab.targetId);
    assert.equal(email.before.title, 'Shop login');

    assert.equal((pw.input as any).text, REDACTED);
    assert.equal(pw.redacted, true);
    assert.equal(pw.target?.name, 'Password');
    assert.equal(pw.risk, 'confirm');
    assert.equal(pw.decision, 'allowed');
    assert.equal(pw.rule, 'secret-input');
    assert.equal(pw.reason, 'typing a secret');
    assert.equal(pw.action, 'Typing into textbox "Password"');
    assert.equal(pw.tool, 'browser_type');
    assert.ok(pw.result!.startsWith(`Typed "${REDACTED}"`), pw.result);
    assert.equal((key.input as any).text, REDACTED, 'value typed into a field with a secret placeholder');
    assert.equal(key.target?.name, 'Key');
    // A {{secret:NAME}} placeholder is a name, not a value: kept (replay resolves it again), its value scrubbed from the result.
    assert.deepEqual((account.input as any).text, '{{secret:ACCOUNT}}');
    assert.equal(account.redacted, undefined);
    assert.ok(account.result!.startsWith(`Typed "${REDACTED}" into textbox "Account number"`), account.result);

    for (const st of [pw, key, click]) {
      assert.ok(st.screenshots?.before && st.screenshots.after, `screenshots for step ${st.step}`);
      for (const f of [st.screenshots!.before!, st.screenshots!.after!]) {
        const img = await fs.readFile(join(task.dir, f));
        assert.equal(img.subarray(0, 2).toString('hex'), 'ffd8', `${f} is a JPEG`);
      }
    }
    assert.equal(pw.screenshots?.before, 'step-0003-before.jpg');

    assert.equal(failed.ok, false);
    assert.equal(failed.errorCode, 'STALE_REF');
    assert.match(failed.result!, /STALE_REF/);
    assert.equal(failed.target, undefined, 'no fingerprint for a ref that resolves to nothing');
    assert.equal(failed.risk, 'notify');

    assert.equal(click.tool, 'browser_click');
    assert.deepEqual({ role: click.target?.role, name: click.target?.name, selector: click.target?.selector }, { role: 'button', name: 'Sign in', selector: '#go' });
    assert.equal(click.risk, 'notify');
    assert.equal(click.decision, 'notified');
    assert.equal(click.rule, 'form-submit');
    assert.equal(click.before.url, `${server.url}login`);
    // The GET form put the password into the URL; the log has it scrubbed there too.
    assert.equal(click.after.url, `${server.url}done?email=ann%40example.com&pw=${REDACTED}&key=${REDACTED}&account=${REDACTED}`);
    assert.equal(click.after.title, 'Welcome');
    assert.equal(snap.ok, true);
    assert.match(snap.result!, /Signed in/);
  });

  it('records refused steps with their rule and does not run them', async () => {
    const recorder = new AuditRecorder({ root });
    const ctx = contextFor(s);
    const task = recorder.startTask('Try the changed page');
    const audit = createAuditHooks(recorder, { decide: testDecider() });
    // As the safety layer's redactingStepHook does: pass on a copy of the event with new input/preview objects.
    const hooks = { decide: audit.decide, onStep: (ev: any) => audit.onStep({ ...ev, input: structuredClone(ev.input), preview: structuredClone(ev.preview) }) };
    const tab = await s.activeTab();
    await runTool(navigateTool, { url: `${server.url}changed` }, ctx, hooks);
    const r = await runTool(clickTool, { ref: await refFor(tab, '#go') }, ctx, hooks);
    assert.equal(r.code, 'BLOCKED_BY_POLICY');
    await task.end('failure');
    const t = await loadTask(task.dir);
    const step = t.steps[1];
    assert.equal(step.decision, 'refused');
    assert.equal(step.rule, 'destructive-button');
    assert.equal(step.errorCode, 'BLOCKED_BY_POLICY');
    assert.ok(step.screenshots?.before, 'the page the person refused to act on is kept');
    assert.equal(step.before.url, `${server.url}changed`, 'state from before the handler is matched to its step through a copied event');
    assert.equal(step.screenshots?.after, undefined);
    assert.equal(step.after.url, `${server.url}changed`);
  });

  it('puts calls without a task into one implicit task per process', async () => {
    const recorder = new AuditRecorder({ root, screenshots: false });
    const ctx = contextFor(s);
    const hooks = createAuditHooks(recorder, { implicit: { source: 'mcp', per: 'process' } });
    await runTool(snapshotTool, {}, ctx, hooks);
    await runTool(snapshotTool, {}, ctx, hooks);
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
