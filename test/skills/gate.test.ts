import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAuditHooks } from '../../src/audit/hooks';
import { loadTask } from '../../src/audit/reader';
import { AuditRecorder } from '../../src/audit/recorder';
import { SkillLibrary } from '../../src/skills/library';
import { findTool } from '../../src/tools/registry';
import { runTool } from '../../src/runtime/runner';
import { startHarness, type Harness } from '../actions/harness';
import { startServer, type TestServer } from '../helpers/servers';
import { tempSkillsDir, writeSkill } from './helpers';

describe('allowed-tools in the runner every front door uses (real Chromium)', function () {
  this.timeout(60_000);
  let h: Harness;
  let site: TestServer;
  let dir: string;
  let audit: string;
  before(async () => {
    site = await startServer({ '/': '<title>Bank</title><button onclick="document.title=\'moved money\'">Transfer</button>' });
    dir = tempSkillsDir();
    audit = mkdtempSync(join(tmpdir(), 'ba-gate-audit-'));
    writeSkill(dir, 'bank', { name: 'Bank: read balance', description: 'Read the balance only', sites: [`127.0.0.1:${site.port}`], allowedTools: ['browser_navigate', 'browser_snapshot'], steps: '1. Read.' });
    h = await startHarness();
    h.ctx.skills = new SkillLibrary([{ path: dir, source: 'workspace' }]);
  });
  after(async () => {
    h.ctx.skills?.dispose();
    await h?.close();
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(audit, { recursive: true, force: true });
  });

  it('refuses a tool the site\'s skill leaves out before it touches the page, and the audit log says why', async () => {
    const recorder = new AuditRecorder({ root: audit, screenshots: false });
    const task = recorder.startTask('read the balance', { source: 'replay' });
    const hooks = createAuditHooks(recorder, { task });
    await runTool(findTool('browser_navigate')!, { url: site.url }, h.ctx, hooks);
    const snap = await runTool(findTool('browser_snapshot')!, {}, h.ctx, hooks);
    const ref = /\[(\w+)\] button "Transfer"/.exec(snap.content.map((c) => (c.type === 'text' ? c.text : '')).join(''))![1];
    const r = await runTool(findTool('browser_click')!, { ref }, h.ctx, hooks);
    assert.equal(r.code, 'BLOCKED_BY_POLICY');
    assert.equal(await (await h.ctx.tab()).evaluate<string>('document.title'), 'Bank');
    await task.end('failure');
    await recorder.dispose();
    const step = (await loadTask(task.dir)).steps.find((s) => s.tool === 'browser_click')!;
    assert.equal(step.decision, 'blocked');
    assert.equal(step.rule, 'skill-allowed-tools');
    assert.match(step.reason ?? '', /the skill "Bank: read balance" allows only browser_navigate, browser_skills_search, browser_snapshot/);
    // Off the site, the same tool runs again.
    await runTool(findTool('browser_navigate')!, { url: 'about:blank' }, h.ctx);
    assert.ok(!(await runTool(findTool('browser_snapshot')!, {}, h.ctx)).isError);
  });

  it('never launches a browser to decide', async () => {
    await h.sessions.close();
    assert.equal(h.sessions.current, undefined);
    const r = await runTool(findTool('browser_skills_search')!, { query: 'balance' }, h.ctx);
    assert.ok(!r.isError);
    assert.equal(h.sessions.current, undefined, 'no browser was started for the check or the search');
  });
});
