import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { exportTask } from '../../src/audit/export';
import { createAuditHooks } from '../../src/audit/hooks';
import { loadTask, type LoadedTask } from '../../src/audit/reader';
import { AuditRecorder } from '../../src/audit/recorder';
import { stepLabel } from '../../src/audit/present';
import { relocate } from '../../src/audit/relocate';
import { snapshotBinder } from '../../src/audit/binder';
import { replayPlan, replayTask } from '../../src/audit/replay';
import type { ConfirmRequest } from '../../src/safety/decider';
import { mapSecretSource, SecretVault } from '../../src/safety/secrets';
import { redactingStepHook } from '../../src/safety/secureTool';
import { SessionManager } from '../../src/session/manager';
import type { BrowserSession } from '../../src/session/browserSession';
import { runTool } from '../../src/runtime/runner';
import type { ToolContext, ToolDefinition, ToolResult } from '../../src/contract/types';
import { TEST_LAUNCH, crossSite } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';
import { realDecider, realTools, toolContext } from '../helpers/tools';
import { createToolPipeline } from '../../src/safety/pipeline';
import { browserRunScript } from '../../src/tools/runScript';
import { CHANGED_PAGE, DONE_PAGE, LOGIN_PAGE } from './pages';

/** Replay's binder exactly as the extension builds it (src/vscode/replayDeps.ts), on the real snapshot. */
const binder = snapshotBinder();

const PASSWORD = 'hunter2-Very$ecret';
const SECRETS = { ACCOUNT: 'ACCT-7788-9911-SECRET' };
const textOf = (r: ToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('audit: replay and Playwright export', function () {
  this.timeout(120_000);
  let sessions: SessionManager;
  let s: BrowserSession;
  let ctx: ToolContext;
  let server: TestServer;
  const vault = new SecretVault(mapSecretSource(SECRETS));
  const tools: Record<string, ToolDefinition> = Object.fromEntries(realTools(vault).map((t) => [t.name, t]));
  const findTool = (name: string) => tools[name];
  /** The real decider; the test answers Allow in place of the person and notes what was asked. */
  const decider = (asked: string[] = []) => realDecider(async (req: ConfirmRequest) => (asked.push(`${req.tool}:${req.preview?.target?.name ?? ''}`), 'allow'), {}, vault).decide;
  let root: string;
  let recorded: LoadedTask;
  /** Query strings of every form submission the server saw. */
  const submissions: URLSearchParams[] = [];

  before(async () => {
    server = await startServer({
      '/login': LOGIN_PAGE,
      '/done': (req, res) => {
        submissions.push(new URL(req.url!, 'http://x').searchParams);
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(DONE_PAGE);
      },
    });
    sessions = new SessionManager(() => ({ mode: 'launch', launch: TEST_LAUNCH }));
    s = await sessions.ensure();
    ctx = toolContext(sessions);
    root = mkdtempSync(join(tmpdir(), 'ba-audit-replay-'));
    // Record the task once, the way the chat agent runs it (hooks as src/vscode/extension.ts builds them).
    const recorder = new AuditRecorder({ root });
    const task = recorder.startTask('Sign in to the shop', { source: 'chat', model: 'm', provider: 'p' });
    const audit = createAuditHooks(recorder, { decide: decider(), task, knownSecrets: () => vault.known() });
    const hooks = { decide: audit.decide, onStep: redactingStepHook(vault, audit.onStep) };
    await runTool(tools.browser_navigate, { url: `${server.url}login` }, ctx, hooks);
    const snap = textOf(await runTool(tools.browser_snapshot, {}, ctx, hooks));
    const ref = (name: string) => new RegExp(`\\[(\\w+)\\] \\w+ "${name}"`).exec(snap)![1];
    await runTool(tools.browser_type, { ref: ref('Email'), text: 'ann@example.com' }, ctx, hooks);
    await runTool(tools.browser_type, { ref: ref('Password'), text: PASSWORD }, ctx, hooks);
    await runTool(tools.browser_type, { ref: ref('Account number'), text: '{{secret:ACCOUNT}}' }, ctx, hooks);
    await runTool(tools.browser_click, { ref: ref('Sign in') }, ctx, hooks);
    await task.end('success');
    recorded = await loadTask(task.dir);
    assert.equal(submissions.length, 1);
  });
  after(async () => {
    await sessions?.close();
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const secrets = async (step: { target?: { name?: string } }) => (step.target?.name === 'Password' ? PASSWORD : undefined);

  it('replays the task on the same page, re-locating each target and confirming sensitive steps again', async () => {
    const tab = await s.newTab('about:blank');
    await s.selectTab(tab.targetId);
    const decided: string[] = [];
    const recorder = new AuditRecorder({ root });
    const replayLog = recorder.startTask(`Replay of ${recorded.id}`, { source: 'replay', replayOf: recorded.id });
    const report = await replayTask(recorded, {
      ctx,
      hooks: createAuditHooks(recorder, { decide: decider(decided), task: replayLog, knownSecrets: () => vault.known() }),
      findTool,
      binder,
      secret: secrets,
    });
    await replayLog.end(report.ok ? 'success' : 'failure');
    assert.equal(report.reason, undefined);
    assert.equal(report.ok, true);
    assert.deepEqual(report.entries.map((e) => `${e.step}:${e.status}`), ['1:ran', '2:skipped', '3:ran', '4:ran', '5:ran', '6:ran']);
    // The question before a replay names the numbers the replay then counts (it said "6 steps" for 5 run before).
    assert.deepEqual(replayPlan(recorded, findTool), { run: report.entries.filter((e) => e.status === 'ran').length, skipped: 1 });
    assert.equal(submissions.length, 2);
    // The placeholder was replayed as a placeholder and resolved again by the vault.
    assert.deepEqual(Object.fromEntries(submissions[1]), { email: 'ann@example.com', pw: PASSWORD, key: '', account: SECRETS.ACCOUNT });
    await tab.refreshInfo();
    assert.equal(tab.title, 'Welcome');
    // The real policy asked again for the sensitive steps of the replay, as it did when they were recorded.
    assert.deepEqual(decided, ['browser_type:Password', 'browser_type:Account number', 'browser_click:Sign in']);
    const replayed = await loadTask(replayLog.dir);
    assert.equal(replayed.start?.replayOf, recorded.id);
    assert.equal(replayed.steps.length, 5);
    const replayRaw = readFileSync(join(replayLog.dir, 'log.jsonl'), 'utf8');
    for (const v of [PASSWORD, encodeURIComponent(PASSWORD), SECRETS.ACCOUNT]) assert.ok(!replayRaw.includes(v), `the replay log leaks ${v}`);
    await s.closeTab(tab.targetId);
  });

  it('replays typed steps recorded with role and name only (no selector, no XPath) by role, name and nearby text', async () => {
    // Recordings made before every action carried a selector: the typed steps have role + name (+ near) only.
    const bare: LoadedTask = {
      ...recorded,
      steps: recorded.steps.map((st) => (st.tool === 'browser_type' && st.target ? { ...st, target: { ...st.target, selector: undefined, xpath: undefined } } : st)),
    };
    assert.equal(bare.steps.filter((st) => st.tool === 'browser_type' && st.target?.role && !st.target.selector && !st.target.xpath).length, 3);
    const before = submissions.length;
    const report = await replayTask(bare, { ctx, hooks: { decide: decider() }, findTool, binder, secret: secrets });
    assert.equal(report.reason, undefined);
    assert.equal(report.ok, true);
    assert.equal(submissions.length, before + 1);
    assert.deepEqual(Object.fromEntries(submissions.at(-1)!), { email: 'ann@example.com', pw: PASSWORD, key: '', account: SECRETS.ACCOUNT });
    // Two fields with the same role and name: the text around each (not its label) tells them apart.
    const TWINS = '<title>twins</title><p>Billing <label>City <input name="billing"></label></p><p>Shipping <label>City <input name="shipping"></label></p>';
    server.route('/twins', TWINS);
    const tab = await s.activeTab();
    const recorder = new AuditRecorder({ root });
    const task = recorder.startTask('Type the shipping city', { source: 'chat' });
    const hooks = createAuditHooks(recorder, { decide: decider(), task, knownSecrets: () => vault.known() });
    await runTool(tools.browser_navigate, { url: `${server.url}twins` }, ctx, hooks);
    const snap = textOf(await runTool(tools.browser_snapshot, {}, ctx, hooks));
    const second = [...snap.matchAll(/\[(\w+)\] textbox "City"/g)][1][1];
    await runTool(tools.browser_type, { ref: second, text: 'Lyon' }, ctx, hooks);
    await task.end('success');
    const twins = await loadTask(task.dir);
    const typed = twins.steps.find((st) => st.tool === 'browser_type')!;
    assert.equal(typed.target?.near, 'Shipping', 'the recorded nearby text is what tells the fields apart, not the label');
    const bareTwins: LoadedTask = { ...twins, steps: twins.steps.map((st) => (st.target ? { ...st, target: { ...st.target, selector: undefined, xpath: undefined } } : st)) };
    const again = await replayTask(bareTwins, { ctx, hooks: { decide: decider() }, findTool, binder });
    assert.equal(again.reason, undefined);
    const values = async () => (await (await tab.session()).send('Runtime.evaluate', { expression: '[...document.querySelectorAll("input")].map((i) => i.value).join("|")', returnByValue: true })).result.value;
    assert.equal(await values(), '|Lyon', 'typed into the Shipping field, not Billing');
    // Without the nearby text there is no telling them apart: refused, and the reason says why.
    const neither = await relocate(tab, { role: 'textbox', name: 'City' });
    assert.ok(!neither.ok && neither.code === 'TARGET_NOT_FOUND' && /2 elements are textbox "City"/.test(neither.reason), !neither.ok ? neither.reason : 'found');
    const elsewhere = await relocate(tab, { role: 'textbox', name: 'City', near: 'Invoice' });
    assert.ok(!elsewhere.ok && /cannot find textbox "City" again: .*2 elements are textbox "City", none near "Invoice"/.test(elsewhere.reason), !elsewhere.ok ? elsewhere.reason : 'found');
  });

  it('stops at the step whose target changed (same place, different name) and never clicks it', async () => {
    server.route('/login', CHANGED_PAGE);
    try {
      const before = submissions.length;
      const progress: string[] = [];
      const recorder = new AuditRecorder({ root });
      const replayLog = recorder.startTask(`Replay of ${recorded.id}`, { source: 'replay', replayOf: recorded.id });
      const report = await replayTask(recorded, {
        ctx,
        hooks: createAuditHooks(recorder, { decide: decider(), task: replayLog, knownSecrets: () => vault.known() }),
        findTool,
        binder,
        secret: secrets,
        locateTimeoutMs: 1000,
        onProgress: (e) => progress.push(`${e.step}:${e.status}`),
      });
      await replayLog.end('failure');
      // The step it stopped at is in the replay's own log, so the Task History tree shows it, reason first.
      const last = (await loadTask(replayLog.dir)).steps.at(-1)!;
      assert.equal(last.ok, false);
      assert.equal(last.errorCode, 'TARGET_CHANGED');
      assert.match(stepLabel(last), /^\d+\. Failed: .*name was "Sign in", now "Delete account"/);
      assert.equal(report.ok, false);
      assert.equal(report.stoppedAt, 6);
      assert.equal(report.code, 'TARGET_CHANGED');
      assert.match(report.reason!, /^Step 6 \(browser_click: Clicking button "Sign in"/);
      assert.match(report.reason!, /name was "Sign in", now "Delete account"/);
      assert.deepEqual(progress, ['1:ran', '2:skipped', '3:ran', '4:ran', '5:ran', '6:stopped']);
      assert.equal(submissions.length, before, 'the changed button was never clicked');
    } finally {
      server.route('/login', LOGIN_PAGE);
    }
  });

  it('stops when the target is missing, or when its XPath now reaches another element', async () => {
    const replay = (timeout: number) => replayTask(recorded, { ctx, hooks: {}, findTool, binder, secret: secrets, locateTimeoutMs: timeout });
    // The Email paragraph is gone: "#email" finds nothing and the recorded XPath now lands on the Password field.
    server.route('/login', LOGIN_PAGE.replace('<p><label>Email <input id="email" name="email"></label></p>', ''));
    try {
      const shifted = await replay(500);
      assert.equal(shifted.stoppedAt, 3);
      assert.equal(shifted.code, 'TARGET_CHANGED');
      assert.match(shifted.reason!, /the element found by XPath is not the recorded one: name was "Email", now "Password"/);
      server.route('/login', '<!doctype html><title>Shop login</title><p>Down for maintenance</p>');
      const started = Date.now();
      const missing = await replay(500);
      assert.ok(Date.now() - started >= 500, 'waited for the element to appear');
      assert.equal(missing.stoppedAt, 3);
      assert.equal(missing.code, 'TARGET_NOT_FOUND');
      assert.match(missing.reason!, /no single element matches selector "#email" or XPath/);
    } finally {
      server.route('/login', LOGIN_PAGE);
    }
  });

  it('stops when a redacted value is not given', async () => {
    const noSecret = await replayTask(recorded, { ctx, hooks: {}, findTool, binder });
    assert.equal(noSecret.stoppedAt, 4);
    assert.match(noSecret.reason!, /"text" is redacted and no value was given; nothing was replayed/);
    assert.deepEqual(noSecret.entries.map((e) => e.status), ['stopped'], 'nothing ran before asking');
  });

  it('relocates by XPath when the selector is gone, and refuses an ambiguous selector', async () => {
    const tab = await s.activeTab();
    await runTool(tools.browser_navigate, { url: `${server.url}login` }, ctx, {});
    const r = await relocate(tab, { role: 'textbox', name: 'Email', selector: '#nope', xpath: '/html/body[1]/form[1]/p[1]/label[1]/input[1]' });
    assert.ok(r.ok && r.element.via === 'xpath' && r.element.name === 'Email');
    // An ambiguous selector: the role and name decide, when they point at exactly one element.
    const byName = await relocate(tab, { role: 'textbox', name: 'Email', selector: 'input' });
    assert.ok(byName.ok && byName.element.via === 'role-name' && byName.element.name === 'Email', !byName.ok ? byName.reason : byName.element.via);
    const amb = await relocate(tab, { role: 'textbox', name: '', selector: 'input' });
    assert.ok(!amb.ok && amb.code === 'TARGET_NOT_FOUND' && /matches 4 elements/.test(amb.reason), !amb.ok ? amb.reason : 'found');
    const unverifiable = await relocate(tab, { selector: '#email' });
    assert.ok(!unverifiable.ok && unverifiable.code === 'NOT_VERIFIABLE');
  });

  it('relocates inside same-site and cross-site (out-of-process) iframes by the recorded frame URL', async () => {
    server.route('/inner-a', '<title>a</title><button id="b">Inner A</button>');
    server.route('/inner-b', '<title>b</title><button id="b">Inner B</button>');
    const crossUrl = `${crossSite(server.origin)}/inner-b`;
    server.route('/frames', `<title>frames</title><iframe src="/inner-a"></iframe><iframe src="${crossUrl}"></iframe>`);
    const tab = await s.activeTab();
    await runTool(tools.browser_navigate, { url: `${server.url}frames` }, ctx, {});
    for (let i = 0; i < 100 && !tab.frameSessions().some((f) => f.url === crossUrl); i++) await new Promise((r) => setTimeout(r, 50));
    const a = await relocate(tab, { role: 'button', name: 'Inner A', selector: '#b', frame: `${server.url}inner-a` });
    assert.ok(a.ok, !a.ok ? a.reason : '');
    assert.notEqual(a.element.frameId, tab.targetId);
    const b = await relocate(tab, { role: 'button', name: 'Inner B', selector: '#b', frame: crossUrl });
    assert.ok(b.ok, !b.ok ? b.reason : '');
    assert.equal(b.element.session, tab.frameSessions().find((f) => f.url === crossUrl)!.session, 'found through the iframe\'s own session');
    const wrong = await relocate(tab, { role: 'button', name: 'Inner A', selector: '#b', frame: crossUrl });
    assert.ok(!wrong.ok && wrong.code === 'TARGET_CHANGED' && /now "Inner B"/.test(wrong.reason));
    const mainOnly = await relocate(tab, { role: 'button', name: 'Inner A', selector: '#b', frame: 'main' });
    assert.ok(!mainOnly.ok && mainOnly.code === 'TARGET_NOT_FOUND');
    const gone = await relocate(tab, { role: 'button', name: 'Inner A', selector: '#b', frame: `${server.url}gone` });
    // An unknown frame searches all frames: the selector matches in two, so the role and name decide.
    assert.ok(gone.ok && gone.element.via === 'role-name' && gone.element.name === 'Inner A', 'two selector matches: the one named "Inner A" is taken, by role and name');
    const twoNamed = await relocate(tab, { role: 'button', name: 'Inner', selector: '#b', frame: `${server.url}gone` });
    assert.ok(!twoNamed.ok && /matches in 2 frames/.test(twoNamed.reason), 'nothing unique: refused');
  });

  it("a script's calls replay (each target re-verified) and export as test steps; the script's own step does neither", async () => {
    const scriptRoot = mkdtempSync(join(tmpdir(), 'ba-audit-script-'));
    const outDir = mkdtempSync(join(resolve('out'), 'audit-script-export-'));
    try {
      // Recorded through the pipeline, as the MCP server runs a browser_run_script call.
      const recorder = new AuditRecorder({ root: scriptRoot });
      const task = recorder.startTask('Sign in with a script', { source: 'mcp' });
      const pipeline = createToolPipeline({ decider: realDecider(async () => 'allow', {}, vault), vault, record: (call) => createAuditHooks(recorder, { ...call, task }) });
      const script = [
        'await browser.navigate({ url: args.url });',
        'const s = await browser.snapshot();',
        "await browser.type({ ref: refOf(s, 'textbox', 'Email'), text: 'script@example.com' });",
        "await browser.type({ ref: refOf(s, 'textbox', 'Account number'), text: '{{secret:ACCOUNT}}' });",
        "await browser.click({ ref: refOf(s, 'button', 'Sign in') });",
        "return 'signed in';",
      ].join('\n');
      const r = await pipeline.run(browserRunScript, { script, args: { url: `${server.url}login` } }, ctx);
      assert.equal(r.isError, undefined, textOf(r));
      await task.end('success');
      const rec = await loadTask(task.dir);
      assert.deepEqual(rec.steps.map((x) => `${x.tool}:${x.inScript?.line ?? '-'}`), ['browser_navigate:1', 'browser_snapshot:2', 'browser_type:3', 'browser_type:4', 'browser_click:5', 'browser_run_script:-']);
      assert.ok(!readFileSync(join(task.dir, 'log.jsonl'), 'utf8').includes(SECRETS.ACCOUNT));
      const before = submissions.length;

      const replayLog = recorder.startTask(`Replay of ${rec.id}`, { source: 'replay', replayOf: rec.id });
      const report = await replayTask(rec, { ctx, hooks: createAuditHooks(recorder, { decide: decider(), task: replayLog, knownSecrets: () => vault.known() }), findTool, binder, secret: secrets });
      await replayLog.end(report.ok ? 'success' : 'failure');
      assert.equal(report.ok, true, report.reason);
      assert.deepEqual(report.entries.map((e) => `${e.step}:${e.status}`), ['1:ran', '2:skipped', '3:ran', '4:ran', '5:ran', '6:skipped']);
      assert.match(report.entries[5].note ?? '', /a script: its calls are replayed as their own steps/);
      assert.equal(submissions.length, before + 1, 'the script was not run a second time on top of its calls');
      assert.equal(submissions[submissions.length - 1].get('email'), 'script@example.com');
      assert.equal(submissions[submissions.length - 1].get('account'), SECRETS.ACCOUNT);

      const spec = readFileSync((await exportTask(rec.dir, outDir)).specFile, 'utf8');
      assert.match(spec, /\/\/ step 3: .*\(script call 3, line 3\)\n\s+await page\.getByRole\("textbox", \{ name: "Email", exact: true \}\)\.fill\("script@example\.com"\);/);
      assert.match(spec, /getByRole\("button", \{ name: "Sign in", exact: true \}\)\.click\(\)/);
      assert.match(spec, /\/\/ step 6 \(browser_run_script\): the script whose calls are the steps above/);
    } finally {
      rmSync(scriptRoot, { recursive: true, force: true });
      rmSync(outDir, { recursive: true, force: true });
    }
  });

  it('exports a Playwright test that runs green against the page with /usr/bin/chromium', async () => {
    // Inside the worktree so the spec resolves @playwright/test from node_modules.
    const outDir = mkdtempSync(join(resolve('out'), 'audit-export-'));
    try {
      const before = submissions.length;
      const exp = await exportTask(recorded.dir, outDir);
      assert.deepEqual(exp.secretEnv, ['BA_SECRET_1', 'ACCOUNT']);
      const spec = readFileSync(exp.specFile, 'utf8');
      assert.ok(!spec.includes(PASSWORD) && !spec.includes(SECRETS.ACCOUNT));
      assert.match(spec, /\.fill\(\(process\.env\["ACCOUNT"\] \?\? ''\)\)/);
      assert.match(spec, /page\.getByRole\("textbox", \{ name: "Email", exact: true \}\)\.fill\("ann@example\.com"\)/);
      assert.match(spec, /getByRole\("button", \{ name: "Sign in", exact: true \}\)\.click\(\)/);
      assert.ok(exp.files.includes('log.jsonl') && exp.files.some((f) => f.endsWith('-after.jpg')));
      const out = await new Promise<{ code: number; text: string }>((done) => {
        execFile(
          resolve('node_modules/.bin/playwright'),
          ['test', 'task.spec.ts', '--reporter=line', '--workers=1', '--timeout=30000', `--output=${join(outDir, 'test-results')}`],
          {
            cwd: outDir,
            timeout: 90_000,
            env: { ...process.env, CHROME_PATH: '/usr/bin/chromium', BA_SECRET_1: PASSWORD, ACCOUNT: SECRETS.ACCOUNT, CI: '1' },
          },
          (err, stdout, stderr) => done({ code: err ? ((err as any).code ?? 1) : 0, text: stdout + stderr }),
        );
      });
      assert.equal(out.code, 0, out.text);
      assert.match(out.text, /1 passed/);
      assert.equal(submissions.length, before + 1);
      assert.deepEqual(Object.fromEntries(submissions[submissions.length - 1]), { email: 'ann@example.com', pw: PASSWORD, key: '', account: SECRETS.ACCOUNT });
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});
