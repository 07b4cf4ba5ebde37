import assert from 'node:assert/strict';
import { runAgent, type AgentOptions } from '../../src/agent/loop';
import { anthropicProvider } from '../../src/agent/providers/anthropic';
import { openaiProvider } from '../../src/agent/providers/openai';
import { carryOver } from '../../src/agent/thread';
import type { AgentMessage, ChatProvider } from '../../src/agent/types';
import { SessionManager } from '../../src/session/manager';
import { NO_POLICY } from '../../src/contract/types';
import { TEST_LAUNCH } from '../helpers/chromium';
import { startAnthropicServer, startOpenAIServer, type LlmServer, type Script, type ScriptedRequest } from '../helpers/llmServers';
import { startServer, type TestServer } from '../helpers/servers';
import { realTools, toolContext } from '../helpers/tools';

const FORM = `<title>Profile</title><h1>Profile</h1>
<input placeholder="Name" id=name>
<button onclick="document.getElementById('out').textContent = 'Saved: ' + document.getElementById('name').value">Save</button>
<p id=out role=status></p>`;

/** The newest `[N] role "name"` the model was sent. */
function refOf(text: string, role: string, name: string): string {
  const m = [...text.matchAll(new RegExp(`\\[(\\w+)\\] ${role} "${name}[^"]*"`, 'g'))].at(-1);
  if (!m) throw new Error(`no ${role} "${name}" in:\n${text.slice(-2000)}`);
  return m[1];
}

/** Every tool call in the request has its result in the very next message, in either wire format (what the real APIs demand). */
function assertCallsAnswered(body: any): void {
  const msgs: any[] = body.messages;
  if (body.system !== undefined) {
    // Anthropic: tool_use blocks in an assistant message, tool_result blocks in the next user message.
    msgs.forEach((m, i) => {
      const ids = (Array.isArray(m.content) ? m.content : []).filter((b: any) => b.type === 'tool_use').map((b: any) => b.id);
      if (!ids.length) return;
      const next = msgs[i + 1];
      assert.equal(next?.role, 'user', `message ${i + 1} answers the calls of message ${i}`);
      const answered = next.content.filter((b: any) => b.type === 'tool_result').map((b: any) => b.tool_use_id);
      assert.deepEqual(answered.slice(0, ids.length).sort(), [...ids].sort(), `every call of message ${i} answered first`);
    });
    msgs.forEach((m, i) => i && assert.notEqual(m.role, msgs[i - 1].role, `roles alternate at ${i}`));
    return;
  }
  // OpenAI: assistant tool_calls, then one `tool` message per call.
  msgs.forEach((m, i) => {
    if (!m.tool_calls?.length) return;
    const answered = msgs.slice(i + 1, i + 1 + m.tool_calls.length).map((t) => (t.role === 'tool' ? t.tool_call_id : undefined));
    assert.deepEqual(answered.sort(), m.tool_calls.map((c: any) => c.id).sort(), `every call of message ${i} answered`);
  });
}

/** Turn 1: the profile task (type Ada, save, finish). Turn 2, the follow-up: the same with the name it asks for. */
const threadScript: Script = (r: ScriptedRequest) => {
  const t = r.lastText;
  if (r.index === 0) return { text: 'I will fill in the name.', toolCalls: [{ name: 'browser_type', input: { ref: refOf(r.allText, 'textbox', 'Name'), text: 'Ada' } }] };
  if (r.index === 1) return { text: 'Now save.', toolCalls: [{ name: 'browser_click', input: { ref: refOf(r.allText, 'button', 'Save') } }] };
  if (r.index === 2) return { text: 'Saved.', toolCalls: [{ name: 'finish', input: { success: true, summary: 'Saved the name Ada.' } }] };
  // The follow-up names no field and no button: only the earlier turns say what "it" is.
  const name = /again with (\w+)/.exec(r.allText)?.[1];
  if (r.index === 3) return { text: `Typing ${name}.`, toolCalls: [{ name: 'browser_type', input: { ref: refOf(t, 'textbox', 'Name'), text: name } }] };
  if (r.index === 4) return { toolCalls: [{ name: 'browser_click', input: { ref: refOf(r.allText, 'button', 'Save') } }] };
  return { toolCalls: [{ name: 'finish', input: { success: true, summary: 'Saved again.' } }] };
};

describe('agent threads: a follow-up continues the conversation (real SDKs, scripted models)', function () {
  this.timeout(90_000);
  let sessions: SessionManager;
  let site: TestServer;
  const servers: LlmServer[] = [];

  before(async () => {
    site = await startServer({ '/': FORM });
    sessions = new SessionManager(() => ({ mode: 'launch', launch: TEST_LAUNCH, cdpTimeoutMs: 10_000 }));
  });
  after(async () => {
    await sessions?.dispose();
    await site?.close();
    await Promise.all(servers.map((s) => s.close()));
  });
  beforeEach(async () => {
    const tab = await (await sessions.ensure()).activeTab();
    const s = await tab.session();
    const loaded = s.waitFor('Page.loadEventFired', () => true, 10_000);
    await s.send('Page.navigate', { url: site.url });
    await loaded;
  });

  const pageStatus = async () => (await (await sessions.ensure()).activeTab()).evaluate<string>(`document.getElementById('out').textContent`);
  const run = (provider: ChatProvider, task: string, extra: Partial<AgentOptions> = {}) =>
    // The thread is under test, not the policy: its tools run with NO_POLICY.
    runAgent({ task, provider, tools: realTools(), ctx: { ...toolContext(sessions), guard: NO_POLICY }, mode: 'dom', maxSteps: 20, signal: new AbortController().signal, ...extra });

  for (const [name, start, make] of [
    ['Anthropic', startAnthropicServer, (s: LlmServer) => anthropicProvider({ apiKey: 'k', model: 'claude-test', baseURL: s.baseURL })],
    ['OpenAI', startOpenAIServer, (s: LlmServer) => openaiProvider({ apiKey: 'k', model: 'gpt-test', baseURL: s.baseURL, vision: false })],
  ] as const) {
    it(`${name}: the follow-up's request carries the earlier turns, compacted, and the page as it is now`, async () => {
      const server = await start(threadScript);
      servers.push(server);
      const provider = make(server);
      const first = await run(provider, 'Set the profile name to Ada and save it.');
      assert.equal(first.status, 'success', first.summary);
      assert.equal(await pageStatus(), 'Saved: Ada');
      assert.ok(first.conversation?.length, 'the outcome carries the thread');
      const threadBefore = JSON.stringify(first.conversation);

      const second = await run(provider, 'Do it again with Grace.', { earlier: first.conversation });
      assert.equal(second.status, 'success', `${second.summary} ${second.reason}`);
      assert.equal(await pageStatus(), 'Saved: Grace', 'the follow-up acted on the page from what the thread said');
      assert.equal(JSON.stringify(first.conversation), threadBefore, "the caller's thread is not changed");

      const followUp = server.requests[3];
      const text = followUp.allText;
      // The user's first message, the model's own words, its tool calls (with their inputs) and their results.
      assert.match(text, /Task: Set the profile name to Ada and save it\./);
      assert.match(text, /I will fill in the name\.[\s\S]*Now save\./);
      const body = JSON.stringify(followUp.body.messages);
      assert.match(body, /browser_type/);
      assert.match(body, /\\"?text\\"?:\s*\\"Ada\\"|"text":"Ada"/, 'the earlier call with its input');
      assert.match(body, /Saved the name Ada\./, 'its own finish');
      assert.match(text, /Typed|typed/, 'an earlier result');
      // The follow-up, then the page as it is now: a fresh snapshot showing the saved name.
      assert.match(text, /Saved the name Ada\.[\s\S]*Follow-up from the user[^\n]*Do it again with Grace\./);
      assert.match(followUp.lastText, /Saved: Ada/, 'the current page state');
      assert.match(followUp.lastText, /textbox "Name"/);
      // Compacted: the first run's snapshot became a placeholder; only the newest is in full.
      assert.match(text, /\[Snapshot from step 0 omitted: superseded/);
      assert.equal((text.match(/interactive elements/g) ?? []).length, 1, 'one full snapshot');
      for (const r of server.requests) assertCallsAnswered(r.body);
      // The thread grows: the second outcome holds both turns.
      assert.match(JSON.stringify(second.conversation), /Set the profile name to Ada[\s\S]*Do it again with Grace/);
    });
  }

  it('a stopped run leaves calls without results: the follow-up answers them, so the real API accepts the thread', async () => {
    const server = await startAnthropicServer((r) => {
      if (r.index === 0) return { toolCalls: [{ name: 'browser_wait', input: { timeMs: 30_000 } }] };
      return { toolCalls: [{ name: 'finish', input: { success: true, summary: 'Looked again.' } }] };
    });
    servers.push(server);
    const provider = anthropicProvider({ apiKey: 'k', model: 'claude-test', baseURL: server.baseURL });
    const controller = new AbortController();
    const stopped = run(provider, 'Wait for the page.', {
      signal: controller.signal,
      onEvent: (e) => e.type === 'step-start' && e.tool === 'browser_wait' && setTimeout(() => controller.abort(), 100),
    });
    const first = await stopped;
    assert.equal(first.status, 'stopped');
    const second = await run(provider, 'Look once more.', { earlier: first.conversation });
    assert.equal(second.status, 'success', `${second.summary} ${second.reason}`);
    assertCallsAnswered(server.requests[1].body);
    assert.match(server.requests[1].allText, /Not run: the run ended before this call ran\./);
  });

  it('a run the model never answered leaves the thread as it was (the person sends the message again)', async () => {
    const server = await startOpenAIServer(() => ({ status: 400 }));
    servers.push(server);
    const earlier: AgentMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'Task: hello' }] }, { role: 'assistant', text: 'Hi.', toolCalls: [] }];
    const o = await run(openaiProvider({ apiKey: 'k', model: 'gpt-test', baseURL: server.baseURL, vision: false }), 'Again', { earlier });
    assert.equal(o.status, 'error');
    assert.deepEqual(o.conversation, earlier);
  });

  it('carryOver: screenshots become a line, long outputs of earlier turns are trimmed, the caller keeps its copy', () => {
    const long = 'x'.repeat(5000);
    const earlier: AgentMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'Task: t' }] },
      { role: 'assistant', text: '', toolCalls: [{ id: 'a', name: 'browser_screenshot', input: {} }, { id: 'b', name: 'browser_network_requests', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', callId: 'a', name: 'browser_screenshot', content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] }, { type: 'tool_result', callId: 'b', name: 'browser_network_requests', content: [{ type: 'text', text: long }] }] },
    ];
    const copy = JSON.stringify(earlier);
    const out = carryOver(earlier);
    assert.equal(JSON.stringify(earlier), copy);
    assert.doesNotMatch(JSON.stringify(out), /"image"/);
    assert.match(JSON.stringify(out), /Screenshot from an earlier turn omitted/);
    assert.ok(JSON.stringify(out).length < 3000);
  });
});
