import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAgent } from '../../src/agent/loop';
import { openaiProvider } from '../../src/agent/providers/openai';
import { createAuditHooks } from '../../src/audit/hooks';
import { loadTask } from '../../src/audit/reader';
import { AuditRecorder } from '../../src/audit/recorder';
import { draftSkill, slugOf } from '../../src/audit/skillDraft';
import { SkillLibrary } from '../../src/skills/library';
import { parseSkill } from '../../src/skills/parse';
import { saveSkillDraft } from '../../src/skills/save';
import { allTools } from '../../src/tools/registry';
import { startHarness, type Harness } from '../actions/harness';
import { startOpenAIServer, type LlmServer, type Script } from '../helpers/llmServers';
import { startServer, type TestServer } from '../helpers/servers';
import { refOf, tempSkillsDir } from './helpers';

const PASSWORD = 'hunter2-Secret!';
const PAGE = `<title>Members</title><h1>Members area</h1>
<label>Member name <input id=u></label><label>Password <input id=p type=password></label>
<button onclick="document.querySelector('h1').textContent = 'Welcome ' + u.value">Sign in</button>`;

describe('Save as Skill: a recorded run becomes a SKILL.md a later run retrieves', function () {
  this.timeout(120_000);
  let h: Harness;
  let site: TestServer;
  let auditDir: string;
  let skillsDir: string;
  const servers: LlmServer[] = [];
  before(async () => {
    site = await startServer({ '/members': PAGE });
    auditDir = mkdtempSync(join(tmpdir(), 'ba-draft-audit-'));
    skillsDir = tempSkillsDir();
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
    await site?.close();
    await Promise.all(servers.map((s) => s.close()));
    rmSync(auditDir, { recursive: true, force: true });
    rmSync(skillsDir, { recursive: true, force: true });
  });

  async function agent(task: string, script: Script, hooks = {}) {
    const server = await startOpenAIServer(script);
    servers.push(server);
    const outcome = await runAgent({ task, provider: openaiProvider({ apiKey: 'k', model: 'm', baseURL: server.baseURL, stream: false, vision: false }), tools: allTools, ctx: h.ctx, hooks, mode: 'dom', maxSteps: 10, signal: new AbortController().signal });
    return { outcome, server };
  }

  it('drafts the steps in words with roles and names, secrets as placeholders; a later run gets it', async () => {
    await h.ok('browser_navigate', { url: 'about:blank' });
    const recorder = new AuditRecorder({ root: auditDir, screenshots: false });
    const task = recorder.startTask('Sign in to the members area as Ada', { source: 'chat' });
    const { outcome } = await agent('Sign in to the members area as Ada', (r) => {
      if (r.index === 0) return { toolCalls: [{ name: 'browser_navigate', input: { url: `${site.url}members?session=abc123` } }] };
      if (r.index === 1) return { toolCalls: [{ name: 'browser_snapshot', input: {} }] };
      if (r.index === 2) return { toolCalls: [{ name: 'browser_type', input: { ref: refOf(r.allText, 'textbox', 'Member name'), text: 'Ada' } }] };
      if (r.index === 3) return { toolCalls: [{ name: 'browser_type', input: { ref: refOf(r.allText, 'textbox', 'Password'), text: PASSWORD } }] };
      if (r.index === 4) return { toolCalls: [{ name: 'browser_click', input: { ref: refOf(r.allText, 'button', 'Sign in') } }] };
      return { toolCalls: [{ name: 'finish', input: { success: true, summary: 'Signed in as Ada.' } }] };
    }, createAuditHooks(recorder, { task }));
    assert.equal(outcome.status, 'success', outcome.summary);
    await task.end('success', outcome.summary);
    await recorder.dispose();

    const loaded = await loadTask(task.dir);
    const draft = draftSkill(loaded);
    assert.equal(draft.slug, 'sign-in-to-the-members-area-as-ada');
    const t = draft.text;
    assert.ok(!t.includes(PASSWORD), 'no secret value');
    assert.ok(!t.includes('abc123'), 'no query strings (session ids)');
    assert.match(t, new RegExp(`1\\. Open ${site.url.replace(/[./]/g, '\\$&')}members\\.`));
    assert.match(t, /2\. Type "Ada" into the textbox "Member name"\./);
    assert.match(t, /3\. Type \{\{secret:PASSWORD\}\} into the textbox "Password"\./);
    assert.match(t, /4\. Click the button "Sign in"\./);
    assert.ok(!/\[\d+\]|ref/.test(t.split('---')[2]), 'no refs or selectors in the steps');
    assert.match(t, /# allowed-tools: browser_snapshot browser_navigate browser_type browser_click/);
    const skill = parseSkill(t, '/x/SKILL.md', 'workspace');
    assert.deepEqual(skill.sites, [`127.0.0.1:${site.port}`]);
    assert.equal(skill.allowedTools, undefined, 'allowed-tools is opt-in (commented out)');
    // Our fields sit under metadata, as strings (VS Code flags any other top-level field); uncommenting the tools
    // line there narrows the tools.
    assert.match(t, new RegExp(`^metadata:\\n  sites: 127\\.0\\.0\\.1:${site.port}\\n`, 'm'));
    assert.ok(!/^(sites|risk|allowed-tools):/m.test(t), t);
    assert.deepEqual(parseSkill(t.replace('  # allowed-tools:', '  allowed-tools:'), '/x/SKILL.md', 'workspace').allowedTools, ['browser_snapshot', 'browser_navigate', 'browser_type', 'browser_click']);

    // Saved where the library looks; a later run with other words for the same task retrieves it.
    const file = await saveSkillDraft(skillsDir, draft);
    assert.equal(file, join(skillsDir, draft.slug, 'SKILL.md'));
    const again = await saveSkillDraft(skillsDir, draft);
    assert.equal(again, join(skillsDir, `${draft.slug}-2`, 'SKILL.md'), 'never overwrites');
    assert.equal(readFileSync(file, 'utf8'), t);
    // VS Code's skill rules: the name is lowercase letters, digits and hyphens, and its folder's, also for a second copy.
    assert.match(t, /^name: sign-in-to-the-members-area-as-ada$/m);
    assert.match(readFileSync(again, 'utf8'), /^name: sign-in-to-the-members-area-as-ada-2$/m);
    assert.equal(parseSkill(readFileSync(again, 'utf8'), again, 'workspace').name, `${draft.slug}-2`);
    rmSync(join(skillsDir, `${draft.slug}-2`), { recursive: true });

    const lib = new SkillLibrary([{ path: skillsDir, source: 'workspace' }]);
    h.ctx.skills = lib;
    try {
      await h.ok('browser_navigate', { url: 'about:blank' });
      const { server } = await agent('log in to the members page with the name Bob', () => ({ toolCalls: [{ name: 'finish', input: { success: true, summary: 'ok' } }] }));
      assert.match(server.requests[0].allText, /name: sign-in-to-the-members-area-as-ada[\s\S]*Sign in to the members area as Ada[\s\S]*Type \{\{secret:PASSWORD\}\} into the textbox "Password"/);
    } finally {
      h.ctx.skills = undefined;
      lib.dispose();
    }
  });

  it('names a skill as VS Code\'s validation wants: lowercase ASCII letters, digits, single hyphens, not at the ends', () => {
    const vscodeRule = (n: string) => /^[a-z0-9-]+$/.test(n) && !/^-|-$|--/.test(n) && n.length >= 1 && n.length <= 64;
    const cases: Array<[string, string]> = [
      ['Sign in to the members area as Ada', 'sign-in-to-the-members-area-as-ada'],
      ['Résumé für Zoë!', 'resume-fur-zoe'],
      ['  --Book a flight: Paris → Rome (Friday)--  ', 'book-a-flight-paris-rome-friday'],
      ['预订机票', 'skill'],
      ['x'.repeat(47) + ' yz', 'x'.repeat(47)],
    ];
    for (const [goal, want] of cases) {
      assert.equal(slugOf(goal), want, goal);
      assert.ok(vscodeRule(slugOf(goal)), `${goal} → ${slugOf(goal)}`);
    }
  });

  it('refuses a task without steps that changed anything', () => {
    assert.throws(() => draftSkill({ dir: '', id: 't', steps: [], warnings: [], truncated: false, start: { type: 'task_start', v: 1, taskId: 't', ts: '', goal: 'look' } }), /nothing to write down/);
  });
});
