import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportTask } from '../../src/audit/export';
import { createAuditHooks } from '../../src/audit/hooks';
import { AuditRecorder } from '../../src/audit/recorder';
import { snapshotBinder } from '../../src/audit/binder';
import { replayPlan, replayTask } from '../../src/audit/replay';
import { loadThread, threadDirs } from '../../src/audit/thread';
import { SessionManager } from '../../src/session/manager';
import type { BrowserSession } from '../../src/session/browserSession';
import { runTool } from '../../src/runtime/runner';
import type { ToolContext, ToolDefinition, ToolResult } from '../../src/contract/types';
import { TEST_LAUNCH } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';
import { realDecider, realTools, toolContext } from '../helpers/tools';
import { DONE_PAGE, LOGIN_PAGE } from './pages';

const textOf = (r: ToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/**
 * A chat thread is a task per message. Replay and export (the panel's buttons on an opened past thread) act on the
 * thread whole: the first message's steps, then the follow-up's, on the real page.
 */
describe('audit: a chat thread replays and exports whole', function () {
  this.timeout(120_000);
  let sessions: SessionManager;
  let s: BrowserSession;
  let ctx: ToolContext;
  let server: TestServer;
  let root: string;
  const tools: Record<string, ToolDefinition> = Object.fromEntries(realTools().map((t) => [t.name, t]));
  const findTool = (name: string) => tools[name];
  const decide = realDecider(async () => 'allow').decide;
  const submissions: URLSearchParams[] = [];
  let first: string;
  let followUp: string;

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
    root = mkdtempSync(join(tmpdir(), 'ba-thread-replay-'));
    const recorder = new AuditRecorder({ root });
    const run = (task: ReturnType<AuditRecorder['startTask']>) => createAuditHooks(recorder, { decide, task });
    const refOf = async (hooks: ReturnType<typeof run>, name: string) => new RegExp(`\\[(\\w+)\\] \\w+ "${name}"`).exec(textOf(await runTool(tools.browser_snapshot, {}, ctx, hooks)))![1];
    // Message 1: open the page and type the email.
    const t1 = recorder.startTask('Open the shop login and type my email', { source: 'chat', provider: 'p' });
    const h1 = run(t1);
    await runTool(tools.browser_navigate, { url: `${server.url}login` }, ctx, h1);
    await runTool(tools.browser_type, { ref: await refOf(h1, 'Email'), text: 'ann@example.com' }, ctx, h1);
    await t1.end('success');
    // Another task in between (Copilot's, say): no part of the thread.
    const other = recorder.startTask('Something else', { source: 'copilot' });
    await other.end('success');
    await new Promise((r) => setTimeout(r, 20)); // a follow-up starts later than its thread's first task
    // Message 2, a follow-up: the account number, then Sign in (on the page message 1 left).
    const t2 = recorder.startTask('Now fill the account number and sign in', { source: 'chat', provider: 'p', thread: t1.id });
    const h2 = run(t2);
    await runTool(tools.browser_type, { ref: await refOf(h2, 'Account number'), text: '42-17' }, ctx, h2);
    await runTool(tools.browser_click, { ref: await refOf(h2, 'Sign in') }, ctx, h2);
    await t2.end('success');
    first = t1.dir;
    followUp = t2.dir;
    assert.equal(submissions.length, 1);
  });
  after(async () => {
    await sessions?.dispose();
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("lists a thread's task folders oldest first, without the tasks of other threads", async () => {
    const id = first.split(/[\\/]/).pop()!;
    assert.deepEqual(await threadDirs(root, id), [first, followUp]);
    assert.equal((await threadDirs(root, 'no-such-thread')).length, 0);
  });

  it('replays every turn in order, numbered 1…N, and the plan counts what the replay runs', async () => {
    const thread = await loadThread([first, followUp]);
    assert.equal(thread.start?.goal, 'Open the shop login and type my email');
    assert.deepEqual(thread.steps.map((x) => `${x.step}:${x.tool}`), [
      '1:browser_navigate', '2:browser_snapshot', '3:browser_type', '4:browser_snapshot', '5:browser_type', '6:browser_snapshot', '7:browser_click',
    ]);
    assert.deepEqual(thread.origin.get(5), { turn: 2, step: 2 });
    const plan = replayPlan(thread, findTool);
    assert.deepEqual(plan, { run: 4, skipped: 3 });

    const tab = await s.newTab('about:blank');
    await s.selectTab(tab.targetId);
    const recorder = new AuditRecorder({ root: mkdtempSync(join(tmpdir(), 'ba-thread-replay-log-')) });
    const log = recorder.startTask('Replay', { source: 'replay' });
    const report = await replayTask(thread, { ctx, hooks: createAuditHooks(recorder, { decide, task: log }), findTool, binder: snapshotBinder() });
    await log.end('success');
    assert.equal(report.reason, undefined);
    assert.deepEqual(report.entries.map((e) => `${e.step}:${e.status}`), ['1:ran', '2:skipped', '3:ran', '4:skipped', '5:ran', '6:skipped', '7:ran']);
    assert.equal(report.entries.filter((e) => e.status === 'ran').length, plan.run, 'the count the question names is the count the replay ran');
    // The follow-up's Sign in sent what the first message typed too: both turns ran, in order, on one page.
    assert.equal(submissions.length, 2);
    assert.deepEqual(Object.fromEntries(submissions[1]), { email: 'ann@example.com', pw: '', key: '', account: '42-17' });
  });

  it("exports one Playwright test of every turn's steps, each turn's files in its own folder", async () => {
    const out = mkdtempSync(join(tmpdir(), 'ba-thread-export-'));
    try {
      const exp = await exportTask([first, followUp], out);
      const spec = readFileSync(exp.specFile, 'utf8');
      const at = (re: RegExp) => {
        const m = re.exec(spec);
        assert.ok(m, `${re} in the spec:\n${spec}`);
        return m.index;
      };
      const order = [
        at(/\/\/ Turn 1: Open the shop login and type my email/),
        at(/page\.goto\(".*\/login"\)/),
        at(/getByRole\("textbox", \{ name: "Email", exact: true \}\)\.fill\("ann@example\.com"\)/),
        at(/\/\/ Turn 2: Now fill the account number and sign in/),
        at(/getByRole\("textbox", \{ name: "Account number", exact: true \}\)\.fill\("42-17"\)/),
        at(/getByRole\("button", \{ name: "Sign in", exact: true \}\)\.click\(\)/),
      ];
      assert.deepEqual(order, [...order].sort((a, b) => a - b), 'the steps in the order they ran');
      assert.ok(exp.files.includes('turn-1/log.jsonl') && exp.files.includes('turn-2/log.jsonl'), exp.files.join(', '));
      assert.ok(existsSync(join(out, 'turn-2', 'log.jsonl')));
      const readme = readFileSync(join(out, 'README.md'), 'utf8');
      assert.match(readme, /1\. Open the shop login and type my email \(3 steps\)\n2\. Now fill the account number and sign in \(4 steps\)/);
      assert.match(readme, /; 7 steps\./);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
