import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSnapshotBinder } from '../../src/audit/binder';
import { exportTask } from '../../src/audit/export';
import { createAuditHooks } from '../../src/audit/hooks';
import { loadTask, type LoadedTask } from '../../src/audit/reader';
import { AuditRecorder } from '../../src/audit/recorder';
import { replayTask } from '../../src/audit/replay';
import { BrowserSession } from '../../src/session/browserSession';
import { resolveRef } from '../../src/snapshot';
import { elementsFor } from '../../src/snapshot/snapshot';
import { findTool } from '../../src/tools/registry';
import { runTool } from '../../src/tools/runner';
import { TEST_LAUNCH } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';
import { contextFor, testDecider } from './fixtures';
import { CHANGED_PAGE, DONE_PAGE, LOGIN_PAGE } from './pages';

const PASSWORD = 'correct-horse-Battery9';
/** The binder exactly as the extension builds it (src/vscode/replayDeps.ts). */
const binder = createSnapshotBinder({
  candidates: async (tab) => (await elementsFor(tab)).lines.filter((l) => l.ref && l.role).map((l) => ({ ref: l.ref!, role: l.role!, name: l.name ?? '' })),
  resolveRef,
});

function tool(name: string) {
  const t = findTool(name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
}

/** Reads a ref out of snapshot text the way a model does: `[12] textbox "Email"`. */
function refIn(snapshot: string, role: string, name: string): string {
  const m = new RegExp(`\\[([\\w:]+)\\] ${role} "${name}"`).exec(snapshot);
  if (!m) throw new Error(`no ${role} "${name}" in:\n${snapshot}`);
  return m[1];
}

describe('audit: record, replay and export with the real tools and the real snapshot', function () {
  this.timeout(120_000);
  let s: BrowserSession;
  let server: TestServer;
  let root: string;
  let recorded: LoadedTask;
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
    root = mkdtempSync(join(tmpdir(), 'ba-audit-real-'));
    const recorder = new AuditRecorder({ root });
    const ctx = contextFor(s);
    const task = recorder.startTask('Sign in with the real tools', { source: 'chat' });
    const hooks = createAuditHooks(recorder, { decide: testDecider(), task });
    await runTool(tool('browser_navigate'), { url: `${server.url}login` }, ctx, hooks);
    const snap = (await runTool(tool('browser_snapshot'), {}, ctx, hooks)).content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    await runTool(tool('browser_type'), { ref: refIn(snap, 'textbox', 'Email'), text: 'ann@example.com' }, ctx, hooks);
    await runTool(tool('browser_type'), { ref: refIn(snap, 'textbox', 'Password'), text: PASSWORD }, ctx, hooks);
    const click = await runTool(tool('browser_click'), { ref: refIn(snap, 'button', 'Sign in') }, ctx, hooks);
    assert.ok(!click.isError, JSON.stringify(click.content));
    await task.end('success');
    recorded = await loadTask(task.dir);
    assert.equal(submissions.length, 1);
  });
  after(async () => {
    await s?.close();
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('records a full fingerprint (role, name, frame, CSS selector, XPath) and never the password', () => {
    const clickStep = recorded.steps.find((st) => st.tool === 'browser_click')!;
    assert.equal(clickStep.target?.role, 'button');
    assert.equal(clickStep.target?.name, 'Sign in');
    assert.ok(clickStep.target?.selector, 'a CSS selector');
    assert.match(clickStep.target?.xpath ?? '', /^\//);
    assert.ok(clickStep.target?.frame);
    assert.ok(!readFileSync(join(recorded.dir, 'log.jsonl'), 'utf8').includes(PASSWORD));
  });

  it('replays on the same page through the real tools', async () => {
    const report = await replayTask(recorded, {
      ctx: contextFor(s),
      hooks: { decide: testDecider() },
      findTool,
      binder,
      secret: async (st) => (st.target?.name === 'Password' ? PASSWORD : undefined),
    });
    assert.equal(report.reason, undefined);
    assert.equal(report.ok, true);
    assert.equal(submissions.length, 2);
    assert.deepEqual(Object.fromEntries(submissions[1]), Object.fromEntries(submissions[0]));
  });

  it('stops where the target changed (same place, different name) and never clicks it', async () => {
    server.route('/login', CHANGED_PAGE);
    try {
      const before = submissions.length;
      const report = await replayTask(recorded, {
        ctx: contextFor(s),
        hooks: { decide: testDecider() },
        findTool,
        binder,
        secret: async (st) => (st.target?.name === 'Password' ? PASSWORD : undefined),
        locateTimeoutMs: 1000,
      });
      assert.equal(report.ok, false);
      assert.equal(report.code, 'TARGET_CHANGED');
      assert.match(report.reason!, /name was "Sign in", now "Delete account"/);
      assert.equal(submissions.length, before);
    } finally {
      server.route('/login', LOGIN_PAGE);
    }
  });

  it('exports a Playwright test with role locators for the recorded targets', async () => {
    const out = mkdtempSync(join(tmpdir(), 'ba-audit-real-export-'));
    try {
      const exp = await exportTask(recorded.dir, out);
      const spec = readFileSync(exp.specFile, 'utf8');
      assert.match(spec, /getByRole\("button", \{ name: "Sign in", exact: true \}\)\.click\(\)/);
      assert.match(spec, /getByRole\("textbox", \{ name: "Email", exact: true \}\)\.fill\("ann@example\.com"\)/);
      assert.ok(!spec.includes(PASSWORD));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
