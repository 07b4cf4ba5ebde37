// Skills and the action cache in the real extension host, installed from the .vsix: the shipped
// examples load from the package, a SKILL.md written into the workspace is picked up by the watcher,
// Copilot's route (vscode.lm.invokeTool) searches skills and is held to a skill's allowed-tools, the
// chat agent gets the skill in its first request, and "Save as Skill…" on its recorded task writes a
// SKILL.md into the workspace that the next run retrieves.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { listTasks } from '../../../src/audit/reader';
import { startAnthropicServer, type LlmServer, type Script } from '../../helpers/llmServers';
import { startServer, type TestServer } from '../../helpers/servers';
import { api, log, waitFor } from './extension';
import { refFor, resultText } from './toolResults';

const invoke = async (name: string, input: object) => resultText(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }));

describe('Skills and the action cache in the extension host', function () {
  this.timeout(120_000);
  let site: TestServer;
  let llm: LlmServer | undefined;
  let skillsDir: string;
  let script: Script = () => ({ toolCalls: [{ name: 'finish', input: { success: true, summary: 'ok' } }] });
  const written: string[] = [];
  const agentConfig = () => vscode.workspace.getConfiguration('browserAgent.agent');

  before(async function () {
    const ws = vscode.workspace.workspaceFolders?.[0];
    if (!ws) {
      log('    SKIPPED: no workspace folder is open in the host.');
      this.skip();
    }
    skillsDir = join(ws!.uri.fsPath, '.browser-agent', 'skills');
    site = await startServer({
      '/': '<title>Garden shop</title><h1>Garden shop</h1><label>Seeds <input id=q></label><button onclick="document.title=\'ordered \' + q.value">Order seeds</button>',
    });
    llm = await startAnthropicServer((r) => script(r));
    await agentConfig().update('provider', 'anthropic', vscode.ConfigurationTarget.Global);
    await agentConfig().update('anthropic.baseURL', llm.baseURL, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await agentConfig().update('provider', undefined, vscode.ConfigurationTarget.Global);
    await agentConfig().update('anthropic.baseURL', undefined, vscode.ConfigurationTarget.Global);
    for (const d of written) rmSync(d, { recursive: true, force: true });
    await vscode.commands.executeCommand('browserAgent.closeBrowser');
    await llm?.close();
    await site?.close();
  });

  it('loads the shipped examples from the installed package and a workspace SKILL.md through the file watcher', async () => {
    const a = await api();
    const lib = a.skills.library!;
    assert.ok(lib, 'skills are on by default');
    await waitFor(() => lib.skills.some((s) => s.source === 'shipped'), 10_000, 'the shipped skills');
    const shipped = lib.skills.filter((s) => s.source === 'shipped');
    assert.ok(shipped.length >= 3 && shipped.every((s) => s.path.includes('browser-agent.browser-agent')), shipped.map((s) => s.path).join(', '));
    const dir = join(skillsDir, 'garden');
    mkdirSync(dir, { recursive: true });
    written.push(dir);
    writeFileSync(join(dir, 'SKILL.md'), `---\nname: "Garden shop: order seeds"\ndescription: Order seeds in the garden shop\nsites: ["127.0.0.1:${site.port}"]\nallowed-tools: browser_navigate browser_snapshot browser_type\n---\n1. Type the seed name into "Seeds".\n2. Never click "Order seeds" without asking.\n`);
    await waitFor(() => lib.skills.some((s) => s.name === 'Garden shop: order seeds'), 10_000, 'the watcher to load the workspace skill');
    assert.equal(lib.skills.find((s) => s.name === 'Garden shop: order seeds')!.source, 'workspace');
  });

  it('Copilot route: browser_skills_search finds it for the page; a tool its allowed-tools leaves out is refused', async () => {
    await invoke('browser_navigate', { url: site.url });
    const found = await invoke('browser_skills_search', { query: 'buy some tomato seeds' });
    assert.match(found, /name: Garden shop: order seeds[\s\S]*\(matches the current page\)/);
    const snap = await invoke('browser_snapshot', {});
    const typed = await invoke('browser_type', { ref: refFor(snap, 'Seeds'), text: 'tomato' });
    assert.ok(!/BLOCKED_BY_POLICY/.test(typed), typed);
    const click = await invoke('browser_click', { ref: refFor(snap, 'Order seeds') });
    assert.match(click, /BLOCKED_BY_POLICY: browser_click is not allowed on this site: the skill "Garden shop: order seeds" allows only/);
    const tab = await (await (await api()).sessions.ensure()).activeTab();
    assert.equal(await tab.evaluate<string>('document.title'), 'Garden shop', 'the button was not clicked');
  });

  it('chat agent: the skill is in the first request; Save as Skill… drafts one from the run and the next run retrieves it', async () => {
    const a = await api();
    script = (r) => {
      if (r.index === 0) return { toolCalls: [{ name: 'browser_navigate', input: { url: site.url } }] };
      if (r.index === 1) return { toolCalls: [{ name: 'browser_snapshot', input: {} }] };
      if (r.index === 2) return { toolCalls: [{ name: 'browser_type', input: { ref: refFor(r.lastText, 'Seeds'), text: 'basil' } }] };
      return { toolCalls: [{ name: 'finish', input: { success: true, summary: 'Typed basil.' } }] };
    };
    const goal = 'Put basil into the seeds field of the garden shop';
    const outcome = (await vscode.commands.executeCommand('browserAgent.agent.run', goal)) as { status: string; summary: string };
    assert.equal(outcome.status, 'success', outcome.summary);
    assert.match(JSON.stringify(llm!.requests[0].body), /Garden shop: order seeds/, 'the workspace skill reached the model');
    const task = await waitForTask(a.audit.recorder.root, goal);
    const file = (await vscode.commands.executeCommand('browserAgent.skills.saveFromTask', { task: { dir: task } })) as string;
    written.push(join(file, '..'));
    assert.ok(file.startsWith(skillsDir), file);
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, file, 'opened for review');
    const text = readFileSync(file, 'utf8');
    assert.match(text, /Type "basil" into the textbox "Seeds"/);
    await waitFor(() => a.skills.library!.skills.some((s) => s.path === file), 10_000, 'the saved skill in the library');
    await assertSkillValidation([file, ...a.skills.library!.skills.filter((s) => s.source === 'shipped').map((s) => s.path)], join(skillsDir, 'garden', 'SKILL.md'));

    const before = llm!.requests.length;
    script = () => ({ toolCalls: [{ name: 'finish', input: { success: true, summary: 'ok' } }] });
    await vscode.commands.executeCommand('browserAgent.agent.run', 'put basil in the seeds box');
    assert.match(JSON.stringify(llm!.requests[before].body), /Type \\"basil\\" into the textbox \\"Seeds\\"/);
  });

  it('Show Action Cache and Clear Action Cache run', async () => {
    const n = await vscode.commands.executeCommand('browserAgent.actionCache.clear');
    assert.equal(typeof n, 'number');
    await vscode.commands.executeCommand('browserAgent.actionCache.show');
  });
});

/**
 * VS Code validates every open SKILL.md (its chat skill checks: a lowercase-hyphen name that matches the folder) into
 * the Problems view. The hand-written skill above breaks both rules, so its problems show that the validator runs on
 * this folder; the saved one and the shipped examples must have none.
 */
async function assertSkillValidation(clean: string[], handWritten: string): Promise<void> {
  const messages = (f: string) => vscode.languages.getDiagnostics(vscode.Uri.file(f)).map((d) => d.message);
  await vscode.window.showTextDocument(vscode.Uri.file(handWritten), { preview: false });
  await waitFor(() => messages(handWritten).some((m) => /lowercase letters/.test(m)), 20_000, `VS Code's skill validation of ${handWritten}`);
  for (const f of clean) await vscode.window.showTextDocument(vscode.Uri.file(f), { preview: false });
  // The validator has shown it runs; give these files the same time to collect problems before reading them.
  await new Promise((r) => setTimeout(r, 3_000));
  for (const f of clean) assert.deepEqual(messages(f), [], `problems in ${f}`);
}

async function waitForTask(root: string, goal: string): Promise<string> {
  let dir: string | undefined;
  await waitFor(async () => {
    dir = (await listTasks(root)).find((t) => t.goal === goal && t.outcome === 'success')?.dir;
    return !!dir && existsSync(join(dir, 'log.jsonl'));
  }, 10_000, `the recorded task "${goal}"`);
  return dir!;
}
