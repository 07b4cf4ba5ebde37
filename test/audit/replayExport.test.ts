import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { exportTask } from '../../src/audit/export';
import { createAuditHooks } from '../../src/audit/hooks';
import { loadTask, type LoadedTask } from '../../src/audit/reader';
import { AuditRecorder } from '../../src/audit/recorder';
import { relocate } from '../../src/audit/relocate';
import { createSnapshotBinder } from '../../src/audit/binder';
import { replayTask } from '../../src/audit/replay';
import { BrowserSession } from '../../src/session/browserSession';
import { runTool } from '../../src/tools/runner';
import { TEST_LAUNCH, crossSite } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';
import { clickTool, contextFor, findTestTool, navigateTool, refFor, SECRETS, snapshotTool, testDecider, testSnapshotApi, typeTool, withSecretPlaceholders } from './fixtures';

/** Replay's binder built the way the extension builds it, on a stand-in for the snapshot's ref API. */
const testBinder = createSnapshotBinder(testSnapshotApi);
import { CHANGED_PAGE, DONE_PAGE, LOGIN_PAGE } from './pages';

const PASSWORD = 'hunter2-Very$ecret';
const API_KEY = 'sk-live-abc123XYZ';

describe('audit: replay and Playwright export', function () {
  this.timeout(120_000);
  let s: BrowserSession;
  let server: TestServer;
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
    s = await BrowserSession.launch(TEST_LAUNCH);
    root = mkdtempSync(join(tmpdir(), 'ba-audit-replay-'));
    // Record the task once, the way the chat agent would run it.
    const recorder = new AuditRecorder({ root });
    const ctx = contextFor(s);
    const task = recorder.startTask('Sign in to the shop', { source: 'chat', model: 'm', provider: 'p' });
    const hooks = createAuditHooks(recorder, { decide: testDecider(), knownSecrets: () => Object.values(SECRETS) });
    const tab = await s.activeTab();
    await runTool(navigateTool, { url: `${server.url}login` }, ctx, hooks);
    await runTool(snapshotTool, {}, ctx, hooks);
    await runTool(typeTool, { ref: await refFor(tab, '#email'), text: 'ann@example.com' }, ctx, hooks);
    await runTool(typeTool, { ref: await refFor(tab, '#pw'), text: PASSWORD }, ctx, hooks);
    await runTool(typeTool, { ref: await refFor(tab, '#key'), text: API_KEY }, ctx, hooks);
    await runTool(withSecretPlaceholders(typeTool), { ref: await refFor(tab, '#account'), text: '{{secret:ACCOUNT}}' }, ctx, hooks);
    await runTool(clickTool, { ref: await refFor(tab, '#go') }, ctx, hooks);
    await task.end('success');
    recorded = await loadTask(task.dir);
    assert.equal(submissions.length, 1);
  });
  after(async () => {
    await s?.close();
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const secrets = async (step: { target?: { name?: string } }) => (step.target?.name === 'Password' ? PASSWORD : step.target?.name === 'Key' ? API_KEY : undefined);

  it('replays the task on the same page, re-locating each target and confirming sensitive steps again', async () => {
    const tab = await s.newTab('about:blank');
    await s.selectTab(tab.targetId);
    const decided: string[] = [];
    const recorder = new AuditRecorder({ root });
    const replayLog = recorder.startTask(`Replay of ${recorded.id}`, { source: 'replay', replayOf: recorded.id });
    const report = await replayTask(recorded, {
      ctx: contextFor(s),
      hooks: createAuditHooks(recorder, { decide: testDecider(decided), task: replayLog }),
      findTool: findTestTool,
      binder: testBinder,
      secret: secrets,
    });
    await replayLog.end(report.ok ? 'success' : 'failure');
    assert.equal(report.reason, undefined);
    assert.equal(report.ok, true);
    assert.deepEqual(report.entries.map((e) => `${e.step}:${e.status}`), ['1:ran', '2:skipped', '3:ran', '4:ran', '5:ran', '6:ran', '7:ran']);
    assert.equal(submissions.length, 2);
    // The placeholder was replayed as a placeholder and resolved again by the (stand-in) secret layer.
    assert.deepEqual(Object.fromEntries(submissions[1]), { email: 'ann@example.com', pw: PASSWORD, key: API_KEY, account: SECRETS.ACCOUNT });
    assert.equal(tab.title, 'Welcome');
    // The same safety decider saw every replayed action (the password and key steps were confirmed again).
    assert.deepEqual(decided, ['browser_navigate:', 'browser_type:Email', 'browser_type:Password', 'browser_type:Key', 'browser_type:Account number', 'browser_click:Sign in']);
    const replayed = await loadTask(replayLog.dir);
    assert.equal(replayed.start?.replayOf, recorded.id);
    assert.equal(replayed.steps.length, 6);
    assert.ok(!readFileSync(join(replayLog.dir, 'log.jsonl'), 'utf8').includes(PASSWORD), 'the replay log redacts too');
    await s.closeTab(tab.targetId);
  });

  it('stops at the step whose target changed (same place, different name) and never clicks it', async () => {
    server.route('/login', CHANGED_PAGE);
    try {
      const before = submissions.length;
      const progress: string[] = [];
      const report = await replayTask(recorded, {
        ctx: contextFor(s),
        hooks: { decide: testDecider() },
        findTool: findTestTool,
        binder: testBinder,
        secret: secrets,
        locateTimeoutMs: 1000,
        onProgress: (e) => progress.push(`${e.step}:${e.status}`),
      });
      assert.equal(report.ok, false);
      assert.equal(report.stoppedAt, 7);
      assert.equal(report.code, 'TARGET_CHANGED');
      assert.match(report.reason!, /^Step 7 \(browser_click: Clicking button "Sign in"\)/);
      assert.match(report.reason!, /name was "Sign in", now "Delete account"/);
      assert.deepEqual(progress, ['1:ran', '2:skipped', '3:ran', '4:ran', '5:ran', '6:ran', '7:stopped']);
      assert.equal(submissions.length, before, 'the changed button was never clicked');
    } finally {
      server.route('/login', LOGIN_PAGE);
    }
  });

  it('stops when the target is missing, or when its XPath now reaches another element', async () => {
    const replay = (timeout: number) => replayTask(recorded, { ctx: contextFor(s), hooks: {}, findTool: findTestTool, binder: testBinder, secret: secrets, locateTimeoutMs: timeout });
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
    const noSecret = await replayTask(recorded, { ctx: contextFor(s), hooks: {}, findTool: findTestTool, binder: testBinder });
    assert.equal(noSecret.stoppedAt, 4);
    assert.match(noSecret.reason!, /"text" is redacted and no value was given; nothing was replayed/);
    assert.deepEqual(noSecret.entries.map((e) => e.status), ['stopped'], 'nothing ran before asking');
  });

  it('relocates by XPath when the selector is gone, and refuses an ambiguous selector', async () => {
    const tab = await s.activeTab();
    await runTool(navigateTool, { url: `${server.url}login` }, contextFor(s), {});
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
    await runTool(navigateTool, { url: `${server.url}frames` }, contextFor(s), {});
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

  it('exports a Playwright test that runs green against the page with /usr/bin/chromium', async () => {
    // Inside the worktree so the spec resolves @playwright/test from node_modules.
    const outDir = mkdtempSync(join(resolve('out'), 'audit-export-'));
    try {
      const before = submissions.length;
      const exp = await exportTask(recorded.dir, outDir);
      assert.deepEqual(exp.secretEnv, ['BA_SECRET_1', 'BA_SECRET_2', 'ACCOUNT']);
      const spec = readFileSync(exp.specFile, 'utf8');
      assert.ok(!spec.includes(PASSWORD) && !spec.includes(API_KEY) && !spec.includes(SECRETS.ACCOUNT));
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
            env: { ...process.env, CHROME_PATH: '/usr/bin/chromium', BA_SECRET_1: PASSWORD, BA_SECRET_2: API_KEY, ACCOUNT: SECRETS.ACCOUNT, CI: '1' },
          },
          (err, stdout, stderr) => done({ code: err ? ((err as any).code ?? 1) : 0, text: stdout + stderr }),
        );
      });
      assert.equal(out.code, 0, out.text);
      assert.match(out.text, /1 passed/);
      assert.equal(submissions.length, before + 1);
      assert.deepEqual(Object.fromEntries(submissions[submissions.length - 1]), { email: 'ann@example.com', pw: PASSWORD, key: API_KEY, account: SECRETS.ACCOUNT });
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});
