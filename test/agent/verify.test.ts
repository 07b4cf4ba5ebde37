import assert from 'node:assert/strict';
import type { AgentEvent } from '../../src/agent/events';
import { runAgent } from '../../src/agent/loop';
import { anthropicProvider } from '../../src/agent/providers/anthropic';
import { openaiProvider } from '../../src/agent/providers/openai';
import { ActionLedger } from '../../src/agent/verify';
import { outcomeLabel, outcomeTone } from '../../src/audit/words';
import { NO_POLICY, type ToolDefinition, type ToolResult } from '../../src/contract/types';
import { SessionManager } from '../../src/session/manager';
import { TaskTranscript } from '../../src/vscode/chat/transcript';
import { TEST_LAUNCH } from '../helpers/chromium';
import { startAnthropicServer, startOpenAIServer, type LlmServer, type Script } from '../helpers/llmServers';
import { startServer, type TestServer } from '../helpers/servers';
import { realDecider, realTools, toolContext } from '../helpers/tools';

const FORM = `<title>Profile</title><h1>Profile</h1>
<input placeholder="Name" id=name>
<button onclick="document.getElementById('out').textContent = 'Saved: ' + document.getElementById('name').value">Save</button>
<button onclick="document.getElementById('out').textContent = 'Everything deleted'">Delete account</button>
<p id=out role=status></p>`;

function refOf(text: string, role: string, name: string, which: 'first' | 'last' = 'last'): string {
  const all = [...text.matchAll(new RegExp(`\\[(\\w+)\\] ${role} "${name}[^"]*"`, 'g'))];
  const m = which === 'first' ? all[0] : all.at(-1);
  if (!m) throw new Error(`no ${role} "${name}" in:\n${text.slice(-2000)}`);
  return m[1];
}

/**
 * The run: the page reloads, then the model types and clicks twice with the refs of the page before
 * (each STALE_REF), and claims success. `fix`: after being told, it redoes them on the fresh refs.
 */
const staleScript = (url: string, fix: boolean): Script => (r) => {
  const first = (role: string, name: string) => refOf(r.allText, role, name, 'first');
  switch (r.index) {
    case 0: return { toolCalls: [{ name: 'browser_navigate', input: { url } }] };
    case 1: return { toolCalls: [{ name: 'browser_type', input: { ref: first('textbox', 'Name'), text: 'Ada' } }] };
    case 2: return { toolCalls: [{ name: 'browser_click', input: { ref: first('button', 'Save') } }] };
    case 3: return { toolCalls: [{ name: 'browser_click', input: { ref: first('button', 'Delete account') } }] };
    case 4: return { text: 'All done.', toolCalls: [{ name: 'finish', input: { success: true, summary: 'Typed Ada, saved it, and deleted the account.' } }] };
  }
  if (!fix) return { toolCalls: [{ name: 'finish', input: { success: true, summary: 'I am sure it is saved and deleted.' } }] };
  // Told what failed, with a fresh snapshot: redo the steps on the page as it is now.
  const last = (role: string, name: string) => refOf(r.lastText, role, name);
  if (r.index === 5) return { toolCalls: [{ name: 'browser_type', input: { ref: last('textbox', 'Name'), text: 'Ada' } }] };
  if (r.index === 6) return { toolCalls: [{ name: 'browser_click', input: { ref: refOf(r.allText, 'button', 'Save') } }] };
  if (r.index === 7) return { toolCalls: [{ name: 'browser_click', input: { ref: refOf(r.allText, 'button', 'Delete account') } }] };
  return { toolCalls: [{ name: 'finish', input: { success: true, summary: 'Saved Ada and deleted the account.' } }] };
};

describe('verified outcomes: a success claim is checked against what the actions did', function () {
  this.timeout(90_000);
  let sessions: SessionManager;
  let site: TestServer;
  const servers: LlmServer[] = [];
  before(async () => {
    // The account page: the default policy asks before a Delete account click there.
    site = await startServer({ '/': FORM, '/account': FORM.replace('<title>Profile', '<title>Account settings') });
    sessions = new SessionManager(() => ({ mode: 'launch', launch: TEST_LAUNCH, cdpTimeoutMs: 10_000 }));
  });
  after(async () => {
    await sessions?.dispose();
    await site?.close();
    await Promise.all(servers.map((s) => s.close()));
  });
  async function open(url: string) {
    const tab = await (await sessions.ensure()).activeTab();
    const s = await tab.session();
    const loaded = s.waitFor('Page.loadEventFired', () => true, 10_000);
    await s.send('Page.navigate', { url });
    await loaded;
  }
  beforeEach(() => open(site.url));
  const pageStatus = async () => (await (await sessions.ensure()).activeTab()).evaluate<string>(`document.getElementById('out').textContent`);

  it('type and two clicks fail on stale refs, the model claims success: told first, then shown as not verified, never Done', async () => {
    const server = await startAnthropicServer(staleScript(site.url, false));
    servers.push(server);
    const transcript = new TaskTranscript('t1', 'Set the name to Ada, save, delete the account', 'anthropic');
    const events: AgentEvent[] = [];
    const o = await runAgent({
      task: transcript.record.task, provider: anthropicProvider({ apiKey: 'k', model: 'claude-test', baseURL: server.baseURL }), tools: realTools(), ctx: { ...toolContext(sessions), guard: NO_POLICY },
      mode: 'dom', maxSteps: 20, signal: new AbortController().signal, onEvent: (e) => (events.push(e), transcript.apply(e)),
    });
    const failedCodes = events.flatMap((e) => (e.type === 'step-end' && !e.ok && e.tool.startsWith('browser_') ? [`${e.tool}:${e.code}`] : []));
    assert.deepEqual(failedCodes, ['browser_type:STALE_REF', 'browser_click:STALE_REF', 'browser_click:STALE_REF'], 'the run the issue describes');
    // The cards name each element by role and name, running and failed, never by a bare ref.
    const starts = events.flatMap((e) => (e.type === 'step-start' && /type|click/.test(e.tool) ? [e.target] : []));
    const ends = events.flatMap((e) => (e.type === 'step-end' && /type|click/.test(e.tool) ? [e.target] : []));
    assert.deepEqual(starts, ['textbox "Name"', 'button "Save"', 'button "Delete account"']);
    assert.deepEqual(ends, starts);
    const failedCards = transcript.record.entries.flatMap((e) => (e.kind === 'card' && e.card.state === 'error' && e.card.tool !== 'finish' ? [e.card] : []));
    assert.match(failedCards[1].message!, /^button "Save" is no longer on the page\./, 'the message names the element, not its ref');
    assert.equal(await pageStatus(), '', 'nothing was saved or deleted');

    // The model was told before it could finish, with the page as it is now.
    const told = server.requests[5].lastText;
    assert.match(told, /NOT_VERIFIED: not finished yet: your last 3 actions failed and were not redone/);
    assert.match(told, /type textbox "Name": STALE_REF[\s\S]*click button "Save": STALE_REF[\s\S]*click button "Delete account": STALE_REF/);
    assert.match(told, /The page still shows: "Profile" http:\/\/127\.0\.0\.1:\d+\//);
    assert.match(told, /\[\w+\] button "Save"/, 'with a fresh snapshot to redo them from');

    // It insisted: the outcome is not verified, names the failures, and is not green.
    assert.equal(o.status, 'unverified');
    assert.equal(o.summary, 'I am sure it is saved and deleted.');
    assert.equal(o.reason, '3 actions failed and were not redone:\n• type textbox "Name": it was from an earlier page\n• click button "Save": it was from an earlier page\n• click button "Delete account": it was from an earlier page');
    const result = transcript.record.entries.at(-1)!;
    assert.equal(result.kind, 'result');
    assert.equal(result.kind === 'result' && result.status, 'unverified');
    assert.equal(result.kind === 'result' && result.reason, o.reason);
    assert.notEqual(outcomeLabel(o.status), 'Done');
    assert.equal(outcomeLabel(o.status), 'Not verified');
    assert.notEqual(outcomeTone(o.status), 'ok');
    // No green check on either finish card.
    const finishes = transcript.record.entries.flatMap((e) => (e.kind === 'card' && e.card.tool === 'finish' ? [e.card] : []));
    assert.deepEqual(finishes.map((c) => c.state), ['error', 'error']);
    assert.equal(finishes[0].summary, 'Not finished yet: 3 actions failed and were not redone');
  });

  it('told what failed, the model redoes the steps on the fresh page and finishes verified (OpenAI)', async () => {
    const server = await startOpenAIServer(staleScript(site.url, true));
    servers.push(server);
    const o = await runAgent({
      task: 'Set the name to Ada, save, delete the account', provider: openaiProvider({ apiKey: 'k', model: 'gpt-test', baseURL: server.baseURL, vision: false }),
      tools: realTools(), ctx: { ...toolContext(sessions), guard: NO_POLICY }, mode: 'dom', maxSteps: 20, signal: new AbortController().signal,
    });
    assert.match(server.requests[5].lastText, /your last 3 actions failed/);
    assert.equal(o.status, 'success', `${o.summary} ${o.reason}`);
    assert.equal(await pageStatus(), 'Everything deleted');
  });

  it('a declined confirmation is made up for only by that action allowed later; another success does not', async () => {
    await open(`${site.origin}/account`);
    const server = await startAnthropicServer((r) => {
      if (r.index === 0) return { toolCalls: [{ name: 'browser_click', input: { ref: refOf(r.allText, 'button', 'Delete account') } }] };
      if (r.index === 1) return { toolCalls: [{ name: 'browser_click', input: { ref: refOf(r.allText, 'button', 'Save') } }] };
      return { toolCalls: [{ name: 'finish', input: { success: true, summary: 'Deleted the account.' } }] };
    });
    servers.push(server);
    const decider = realDecider(async () => 'refuse');
    const events: AgentEvent[] = [];
    const o = await runAgent({
      onEvent: (e) => events.push(e),
      task: 'Delete the account', provider: anthropicProvider({ apiKey: 'k', model: 'claude-test', baseURL: server.baseURL }), tools: realTools(), ctx: toolContext(sessions),
      mode: 'dom', maxSteps: 10, signal: new AbortController().signal, hooks: { decide: decider.decide },
    });
    assert.equal(o.status, 'unverified');
    assert.equal(o.reason, '1 action failed and was not redone:\n• click button "Delete account": you declined it');
    // The declined card names the element the confirmation showed.
    const declined = events.find((e): e is Extract<AgentEvent, { type: 'step-end' }> => e.type === 'step-end' && e.decision?.outcome === 'refused');
    assert.equal(declined?.target, 'button "Delete account"');
    assert.match(server.requests[3].lastText, /1 of your actions failed and was not redone:\n- click button "Delete account": BLOCKED_BY_POLICY/);
    assert.equal(await pageStatus(), 'Saved: ', 'the save ran, the delete did not');
  });

  it('the ledger: read-only and passive tools do not count; the same tool succeeding later makes up for a failure', () => {
    const tool = (name: string, readOnly = false) => ({ name, readOnly }) as ToolDefinition;
    const ok: ToolResult = { content: [{ type: 'text', text: 'Clicked' }], meta: { target: { role: 'button', name: 'Save' } } };
    const stale: ToolResult = { content: [{ type: 'text', text: 'STALE_REF: Ref 5 (button "Save") is no longer on the page. It was shown on the previous page.' }], isError: true, code: 'STALE_REF' };
    const l = new ActionLedger();
    l.record(tool('browser_snapshot', true), {}, { content: [{ type: 'text', text: 'x' }], isError: true });
    l.record(tool('browser_scroll'), {}, { content: [{ type: 'text', text: 'x' }], isError: true });
    l.record(tool('browser_click'), { ref: '5' }, stale);
    assert.deepEqual(l.unresolved().map((a) => a.what), ['click button "Save"'], 'named by role and name, not the ref');
    l.record(tool('browser_click'), { ref: '9' }, ok);
    assert.deepEqual(l.unresolved(), []);
    l.record(tool('browser_type'), { ref: '7' }, { content: [{ type: 'text', text: 'TARGET_NOT_FOUND: No element with ref "7"' }], isError: true, code: 'TARGET_NOT_FOUND' });
    const failed = l.unresolved();
    assert.equal(l.reason(failed), '1 action failed and was not redone:\n• type the element ref 7: it was not found');
    assert.equal(l.shouldWarn(failed), true);
    assert.equal(l.shouldWarn(failed), false, 'told once about the same failures');
    // A tool the site's skill rules out was never a step of the task.
    const gated = new ActionLedger();
    gated.record(tool('browser_type'), { ref: '7' }, { content: [{ type: 'text', text: 'BLOCKED_BY_POLICY: not allowed by the skill' }], isError: true, code: 'BLOCKED_BY_POLICY' }, { rating: { level: 'block', rule: 'skill-allowed-tools' }, outcome: 'blocked' });
    assert.deepEqual(gated.unresolved(), []);
  });
});
