import assert from 'node:assert/strict';
import { runAgent, type AgentOptions } from '../../src/agent/loop';
import type { AgentEvent } from '../../src/agent/events';
import { anthropicProvider } from '../../src/agent/providers/anthropic';
import { jsonFallback } from '../../src/agent/providers/jsonFallback';
import { openaiProvider } from '../../src/agent/providers/openai';
import { withRetry } from '../../src/agent/providers/retry';
import type { ChatProvider } from '../../src/agent/types';
import { SessionManager } from '../../src/session/manager';
import { NO_POLICY } from '../../src/contract/types';
import { TEST_LAUNCH } from '../helpers/chromium';
import { startAnthropicServer, startOpenAIServer, type LlmServer, type Script, type ScriptedRequest } from '../helpers/llmServers';
import { startServer, type TestServer } from '../helpers/servers';
import { realDecider, realTools, toolContext } from '../helpers/tools';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAuditHooks } from '../../src/audit/hooks';
import { loadTask } from '../../src/audit/reader';
import { AuditRecorder } from '../../src/audit/recorder';
import { createToolPipeline } from '../../src/safety/pipeline';
import { SecretVault } from '../../src/safety/secrets';
import { allTools } from '../../src/tools/registry';

const FORM = `<title>Profile</title><h1>Profile</h1>
<input placeholder="Name" id=name>
<button onclick="document.getElementById('out').textContent = 'Saved: ' + document.getElementById('name').value">Save</button>
<button onclick="document.getElementById('out').textContent = 'Everything deleted'">Delete account</button>
<p id=out role=status></p>`;

/** A page the default policy rates sensitive (its URL names the account): consequential clicks there ask first. */
const ACCOUNT = `<title>Account settings</title><h1>Account</h1>
<button onclick="document.getElementById('out').textContent = 'Everything deleted'">Delete account</button>
<p id=out role=status></p>`;

/** Finds `[N] <role> "<name…>"` in what the model was sent: the scripted model reads the page like a real one. */
function refOf(text: string, role: string, name: string): string {
  const m = [...text.matchAll(new RegExp(`\\[(\\w+)\\] ${role} "${name}[^"]*"`, 'g'))].at(-1);
  if (!m) throw new Error(`no ${role} "${name}" in:\n${text.slice(-2000)}`);
  return m[1];
}

/** The profile task, as a model would do it: type, save, check, finish. */
const profileScript: Script = (r: ScriptedRequest) => {
  const t = r.lastText;
  if (r.index === 0) return { text: 'I will fill in the name.', toolCalls: [{ name: 'browser_type', input: { ref: refOf(r.allText, 'textbox', 'Name'), text: 'Ada' } }] };
  if (r.index === 1) return { text: 'Now save.', toolCalls: [{ name: 'browser_click', input: { ref: refOf(r.allText, 'button', 'Save') } }] };
  if (r.index === 2) return { toolCalls: [{ name: 'browser_snapshot', input: {} }] };
  if (/Saved: Ada/.test(t)) return { text: 'Done.', toolCalls: [{ name: 'finish', input: { success: true, summary: 'Saved the name Ada.', data: { saved: 'Ada' } } }] };
  return { toolCalls: [{ name: 'finish', input: { success: false, summary: `unexpected page: ${t.slice(0, 200)}` } }] };
};

describe('agent loop against scripted models through the real SDKs', function () {
  this.timeout(90_000);
  let sessions: SessionManager;
  let site: TestServer;
  const servers: LlmServer[] = [];

  before(async () => {
    site = await startServer({
      '/': FORM,
      '/account': ACCOUNT,
      '/orders': `<title>Orders</title><h1>Orders</h1><ul id=list></ul><script>fetch('/api/orders').then((r) => r.json()).then((o) => { for (const x of o) list.append(x) })</script>`,
      '/api/orders': (_q, r) => {
        r.writeHead(500, { 'content-type': 'application/json' });
        r.end('{"error":"database offline"}');
      },
    });
    sessions = new SessionManager(() => ({ mode: 'launch', launch: TEST_LAUNCH, cdpTimeoutMs: 10_000 }));
  });
  after(async () => {
    await sessions?.dispose();
    await site?.close();
    await Promise.all(servers.map((s) => s.close()));
  });
  beforeEach(() => open(site.url));

  async function open(url: string) {
    const tab = await (await sessions.ensure()).activeTab();
    const s = await tab.session();
    const loaded = s.waitFor('Page.loadEventFired', () => true, 10_000);
    await s.send('Page.navigate', { url });
    await loaded;
  }

  async function anthropic(script: Script, stream = true): Promise<{ server: LlmServer; provider: ChatProvider }> {
    const server = await startAnthropicServer(script);
    servers.push(server);
    return { server, provider: withRetry(anthropicProvider({ apiKey: 'test-key', model: 'claude-test', baseURL: server.baseURL, stream }), { retries: 3, baseDelayMs: 50, maxDelayMs: 500 }) };
  }
  async function openai(script: Script, stream = true): Promise<{ server: LlmServer; provider: ChatProvider }> {
    const server = await startOpenAIServer(script);
    servers.push(server);
    return { server, provider: withRetry(openaiProvider({ apiKey: 'test-key', model: 'gpt-test', baseURL: server.baseURL, stream, vision: false }), { retries: 3, baseDelayMs: 50, maxDelayMs: 500 }) };
  }

  function run(provider: ChatProvider, extra: Partial<AgentOptions> = {}) {
    const events: AgentEvent[] = [];
    const controller = new AbortController();
    const outcome = runAgent({
      task: 'Set the profile name to Ada and save it.',
      // The loop is under test, not the policy: without a decider its tools run with NO_POLICY (with one, its guard).
      provider, tools: realTools(), ctx: { ...toolContext(sessions), guard: NO_POLICY }, mode: 'dom', maxSteps: 25,
      signal: controller.signal, onEvent: (e) => events.push(e), ...extra,
    });
    return { outcome, events, controller };
  }

  async function pageStatus(): Promise<string> {
    return (await (await sessions.ensure()).activeTab()).evaluate<string>(`document.getElementById('out').textContent`);
  }

  for (const [name, make] of [
    ['Anthropic, streaming', () => anthropic(profileScript, true)],
    ['Anthropic, not streaming', () => anthropic(profileScript, false)],
    ['OpenAI, streaming', () => openai(profileScript, true)],
    ['OpenAI, not streaming', () => openai(profileScript, false)],
  ] as const) {
    it(`${name}: a multi-step task on a local page reaches finish`, async () => {
      const { server, provider } = await make();
      const { outcome, events } = run(provider);
      const o = await outcome;
      assert.equal(o.status, 'success', o.summary);
      assert.deepEqual(o.data, { saved: 'Ada' });
      assert.equal(await pageStatus(), 'Saved: Ada', 'the real page changed');
      assert.equal(server.requests.length, 4);
      // Tools reached the model as tools, with JSON schemas from zod.
      const tools = server.requests[0].body.tools.map((t: any) => t.name ?? t.function?.name);
      assert.ok(tools.includes('browser_click') && tools.includes('finish') && tools.includes('think'));
      assert.ok(!tools.includes('browser_screenshot'), 'dom mode hides vision tools');
      const ends = events.filter((e): e is Extract<AgentEvent, { type: 'step-end' }> => e.type === 'step-end');
      assert.deepEqual(ends.map((e) => e.tool), ['browser_snapshot', 'browser_type', 'browser_click', 'browser_snapshot', 'finish']);
      assert.ok(ends.every((e) => e.ok && e.durationMs >= 0));
      const streamed = events.filter((e) => e.type === 'text').map((e) => (e as any).delta).join('');
      assert.equal(streamed, 'I will fill in the name.Now save.Done.');
      assert.ok(events.some((e) => e.type === 'tokens' && e.estimate > 0));
      // The system prompt carries the date, the start page and the untrusted-content rule.
      const system = JSON.stringify(server.requests[0].body.system ?? server.requests[0].body.messages[0]);
      assert.match(system, new RegExp(new Date().toISOString().slice(0, 10)));
      assert.ok(system.includes(site.url) && /untrusted/.test(system));
    });
  }

  it('a page that stays empty: the model is told to look at the network, finds the failed call and reads its answer', async () => {
    await open(`${site.origin}/orders`);
    const script: Script = (r) => {
      if (r.index === 0) return { toolCalls: [{ name: 'browser_network_requests', input: { failedOnly: true } }] };
      const failed = /#(\d+) GET \/api\/orders 500 Internal Server Error \[fetch\]/.exec(r.lastText);
      if (r.index === 1 && failed) return { toolCalls: [{ name: 'browser_network_requests', input: { id: Number(failed[1]) } }] };
      const why = /response body:\n(\{.*\})/.exec(r.lastText);
      if (r.index === 2 && why) return { toolCalls: [{ name: 'finish', input: { success: true, summary: 'GET /api/orders answers 500.', data: JSON.parse(why[1]) } }] };
      return { toolCalls: [{ name: 'finish', input: { success: false, summary: `unexpected: ${r.lastText.slice(0, 300)}` } }] };
    };
    const { server, provider } = await anthropic(script);
    const o = await run(provider, { task: 'Why is the orders list empty?' }).outcome;
    assert.equal(o.status, 'success', o.summary);
    assert.deepEqual(o.data, { error: 'database offline' });
    const system = JSON.stringify(server.requests[0].body.system);
    assert.match(system, /read browser_console_messages and browser_network_requests \(failedOnly\) before guessing/);
  });

  it('JSON fallback: tools in the prompt, the ```json block parsed and validated', async () => {
    const jsonScript: Script = (r) => {
      const call = profileScript(r) as { text?: string; toolCalls: Array<{ name: string; input: unknown }> };
      const c = call.toolCalls[0];
      return { text: `${call.text ?? 'Next.'}\n\`\`\`json\n${JSON.stringify({ tool: c.name, args: c.input })}\n\`\`\`` };
    };
    const { server, provider } = await openai(jsonScript, true);
    const { outcome } = run(jsonFallback(provider));
    const o = await outcome;
    assert.equal(o.status, 'success', o.summary);
    assert.equal(await pageStatus(), 'Saved: Ada');
    const first = server.requests[0].body;
    assert.equal(first.tools, undefined, 'no function calling sent');
    assert.match(first.messages[0].content, /```json/);
    assert.match(first.messages[0].content, /### browser_click/);
    assert.ok(server.requests[1].allText.includes('Result of browser_type'));
  });

  it('JSON fallback: a malformed reply gets one corrective retry, then the run goes on', async () => {
    let n = 0;
    const { server, provider } = await openai((r) => {
      n++;
      if (n === 1) return { text: 'I think I should type the name somewhere.' };
      if (n === 2) {
        assert.match(r.lastText, /could not be used: no ```json block/);
        return { text: '```json\n{"tool": "browser_type", "args": {"ref": "' + refOf(r.allText, 'textbox', 'Name') + '", "text": "Ada"}}\n```' };
      }
      if (n === 3) return { text: '```json\n{"tool": "browser_click", "args": ' };
      if (n === 4) {
        assert.match(r.lastText, /not valid JSON/);
        return { text: '```json\n{"tool": "browser_click", "args": {"ref": "' + refOf(r.allText, 'button', 'Save') + '"}}\n```' };
      }
      return { text: '```json\n{"tool": "finish", "args": {"success": true, "summary": "saved"}}\n```' };
    });
    const { outcome } = run(jsonFallback(provider));
    const o = await outcome;
    assert.equal(o.status, 'success', o.summary);
    assert.equal(server.requests.length, 5);
    assert.equal(await pageStatus(), 'Saved: Ada');
  });

  it('429, 500 and 529 are retried with exponential backoff (Retry-After honoured); 400 is not', async () => {
    let calls = 0;
    const { server, provider } = await anthropic(() => {
      calls++;
      if (calls === 1) return { status: 429, retryAfter: '0' };
      if (calls === 2) return { status: 500 };
      if (calls === 3) return { status: 529 };
      return { toolCalls: [{ name: 'finish', input: { success: true, summary: 'ok after retries' } }] };
    });
    const t0 = Date.now();
    const o = await run(provider).outcome;
    assert.equal(o.status, 'success', o.summary);
    assert.equal(server.requests.length, 4);
    // Retry-After: 0, then ~100 ms and ~200 ms (base 50 ms, doubling, ±20% jitter).
    assert.ok(Date.now() - t0 >= 240, `waited ${Date.now() - t0} ms`);
    const bad = await anthropic(() => ({ status: 400 }));
    const o2 = await run(bad.provider).outcome;
    assert.equal(o2.status, 'error');
    assert.equal(bad.server.requests.length, 1);
  });

  it('Stop in the middle of a tool step ends the run and cancels the tool', async () => {
    const { server, provider } = await anthropic((r) =>
      r.index === 0 ? { toolCalls: [{ name: 'browser_wait', input: { text: 'never there', timeoutMs: 120_000 } }] } : { toolCalls: [{ name: 'finish', input: { success: true, summary: 'x' } }] },
    );
    const { outcome, events, controller } = run(provider);
    while (!events.some((e) => e.type === 'step-start' && e.tool === 'browser_wait')) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const o = await outcome;
    // The wait would have lasted two minutes (beyond this test's timeout); Stop ended it and the run.
    assert.equal(o.status, 'stopped');
    assert.ok(!events.some((e) => e.type === 'step-end' && e.tool === 'browser_wait' && e.ok), 'the wait did not complete');
    assert.equal(server.requests.length, 1, 'no model call after Stop');
  });

  it('Stop while the model is answering cancels the HTTP request', async () => {
    // The scripted model would answer after 120 s, beyond this test's timeout.
    const { server, provider } = await openai(() => ({ delayMs: 120_000, toolCalls: [{ name: 'finish', input: { success: true, summary: 'late' } }] }));
    const { outcome, controller } = run(provider);
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const o = await outcome;
    assert.equal(o.status, 'stopped');
    // The server saw the request go away (the connection closed before any answer).
    while (server.aborted === 0) await new Promise((r) => setTimeout(r, 20));
    assert.equal(server.aborted, 1);
    assert.equal(server.requests.length, 1);
  });

  it('a refused confirm-level step (the real policy and decider): the model is told and adapts', async () => {
    await open(`${site.origin}/account`);
    const asked: string[] = [];
    const decider = realDecider(async (req) => (asked.push(`${req.rating.rule}: ${req.preview?.message}`), 'refuse'));
    const { provider } = await anthropic((r) => {
      // As a model would: click the button once a snapshot shows it (the run starts without one when reading the
      // tab's URL lost a race on a loaded machine; seen once in a CI-like run).
      if (!/BLOCKED_BY_POLICY|Clicked|browser_click/.test(r.lastText) && !asked.length) {
        return /\] button "Delete account/.test(r.allText)
          ? { toolCalls: [{ name: 'browser_click', input: { ref: refOf(r.allText, 'button', 'Delete account') } }] }
          : { toolCalls: [{ name: 'browser_snapshot', input: {} }] };
      }
      if (/BLOCKED_BY_POLICY/.test(r.lastText)) return { text: 'Not allowed; I will not delete.', toolCalls: [{ name: 'finish', input: { success: false, summary: 'Deleting the account was not allowed.' } }] };
      return { toolCalls: [{ name: 'finish', input: { success: true, summary: 'deleted?' } }] };
    });
    const { outcome, events } = run(provider, { hooks: { decide: decider.decide } });
    const o = await outcome;
    assert.equal(o.status, 'failure', o.summary);
    assert.equal(await pageStatus(), '', 'nothing was deleted');
    assert.equal(asked.length, 1, 'the person was asked once');
    assert.match(asked[0], /^sensitive-target-on-sensitive-page: .*Delete account/);
    const card = events.find((e): e is Extract<AgentEvent, { type: 'step-end' }> => e.type === 'step-end' && e.tool === 'browser_click')!;
    assert.equal(card.decision?.outcome, 'refused');
    assert.equal(card.code, 'BLOCKED_BY_POLICY');
  });

  it('browser_run_script in the chat: each call of the script goes through the run\'s own pipeline (asked with the script, recorded as a step)', async () => {
    await open(`${site.origin}/account`);
    const asked: { rule?: string; call?: number; line?: number }[] = [];
    const vault = new SecretVault();
    // The person takes a moment (the panel then says what waits for them).
    const decider = realDecider(async (req) => (asked.push({ rule: req.rating.rule, call: req.preview?.inScript?.call, line: req.preview?.inScript?.line }), await new Promise((r) => setTimeout(r, 600)), 'allow'), {}, vault);
    const root = mkdtempSync(join(tmpdir(), 'ba-loop-script-'));
    const recorder = new AuditRecorder({ root });
    const task = recorder.startTask('delete it with a script', { source: 'chat' });
    // As the extension wires the chat panel (vscode/extension.ts): tools from one pipeline, the run's hooks from another.
    const pipeline = createToolPipeline({ decider, vault, record: (call) => createAuditHooks(recorder, { ...call, task }) });
    const script = "const s = await browser.snapshot();\nawait browser.click({ ref: refOf(s, 'button', 'Delete account') });\nreturn (await browser.snapshot()).includes('Everything deleted');";
    const { provider } = await anthropic((r) =>
      r.index === 0
        ? { toolCalls: [{ name: 'browser_run_script', input: { script } }] }
        : { toolCalls: [{ name: 'finish', input: { success: /return: true/.test(r.lastText), summary: r.lastText.slice(0, 300) } }] },
    );
    try {
      const { outcome, events } = run(provider, { tools: allTools.map(createToolPipeline({ decider, vault }).tool), ctx: toolContext(sessions), hooks: pipeline.hooks() });
      const o = await outcome;
      assert.equal(o.status, 'success', o.summary);
      assert.equal(await pageStatus(), 'Everything deleted');
      assert.deepEqual(asked, [{ rule: 'sensitive-target-on-sensitive-page', call: 2, line: 2 }], 'the click was asked about, naming the script\'s call and line');
      assert.ok(
        events.some((e) => e.type === 'status' && /^Waiting for your confirmation: .*Delete account.* \(script call 2, line 2\)$/.test(e.text)),
        'the panel said which call of the script waits for the person',
      );
      // The panel shows each call of the script as a card of its own, under the script's.
      const ends = events.filter((e): e is Extract<AgentEvent, { type: 'step-end' }> => e.type === 'step-end');
      const scriptCard = ends.find((e) => e.tool === 'browser_run_script')!;
      const inner = ends.filter((e) => e.id.startsWith(`${scriptCard.id}.`));
      assert.deepEqual(inner.map((e) => [e.id.slice(scriptCard.id.length), e.tool, e.ok]), [['.1', 'browser_snapshot', true], ['.2', 'browser_click', true], ['.3', 'browser_snapshot', true]]);
      assert.equal(inner[1].decision?.outcome, 'allowed');
      await recorder.endTask('success', 'done');
      // The loop's own first look may be a step before them.
      const steps = (await loadTask(task.dir)).steps.filter((x) => x.inScript || x.tool === 'browser_run_script');
      assert.deepEqual(steps.map((x) => [x.tool, x.inScript?.call ?? null]), [['browser_snapshot', 1], ['browser_click', 2], ['browser_snapshot', 3], ['browser_run_script', null]]);
      assert.equal(steps[1].decision, 'allowed');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('context: only the latest snapshot stays in full; long outputs trimmed; token count reported', async () => {
    const { server, provider } = await anthropic((r) =>
      r.index < 3 ? { toolCalls: [{ name: 'browser_snapshot', input: {} }] } : { toolCalls: [{ name: 'finish', input: { success: true, summary: 'looked' } }] },
    );
    const { outcome, events } = run(provider, { limits: { maxSnapshotChars: 160, maxOutputChars: 100, keepImages: 2 } });
    assert.equal((await outcome).status, 'success');
    const last = server.requests.at(-1)!;
    const full = (last.allText.match(/\d+ interactive elements\.\n<page-content id=\d+>\nURL: http:\/\/127\.0\.0\.1:\d+\/\n/g) ?? []).length;
    assert.equal(full, 1, 'one full snapshot');
    assert.equal((last.allText.match(/\[Snapshot from step \d+ omitted/g) ?? []).length, 3, 'the initial and two later snapshots became placeholders');
    assert.match(last.allText, /more characters trimmed/);
    const toks = events.filter((e) => e.type === 'tokens') as Array<{ estimate: number; inputTokens?: number }>;
    assert.ok(toks.length >= 4 && toks.at(-1)!.inputTokens! > 0);
  });

  it('the loop never spins: identical calls are refused, then the run stops as stuck', async () => {
    const { server, provider } = await anthropic(() => ({ toolCalls: [{ name: 'browser_snapshot', input: {} }] }));
    const o = await run(provider, { maxIdenticalCalls: 3 }).outcome;
    assert.equal(o.status, 'stuck');
    assert.ok(server.requests.some((r) => /LOOP_DETECTED/.test(r.lastText)));
    assert.ok(server.requests.length <= 6);
  });

  it('a repeated failure on the same target brings a fresh snapshot; tool errors carry their hints', async () => {
    const { server, provider } = await openai((r) =>
      r.index < 2 ? { toolCalls: [{ name: 'browser_click', input: { ref: r.index === 0 ? '99' : '99 ' } }] } : { toolCalls: [{ name: 'finish', input: { success: false, summary: 'gone' } }] },
    );
    // '99' and '99 ' differ as calls but name the same missing element.
    await run(provider).outcome;
    assert.match(server.requests[1].lastText, /TARGET_NOT_FOUND: No element with ref "99"[\s\S]*Hint: .*take a snapshot/);
    assert.doesNotMatch(server.requests[1].lastText, /fresh snapshot/);
    assert.match(server.requests[2].lastText, /fresh snapshot/);
    assert.match(server.requests[2].lastText, /\[\d+\] button "Save"/);
  });

  it('function arguments that are not JSON get a clear INVALID_INPUT and the model recovers', async () => {
    const { server, provider } = await openai((r) => {
      if (r.index === 0) return { toolCalls: [{ name: 'browser_click', input: '{"ref": ' as unknown }] };
      return { toolCalls: [{ name: 'finish', input: { success: true, summary: 'recovered' } }] };
    });
    const o = await run(provider).outcome;
    assert.equal(o.status, 'success');
    assert.match(server.requests[1].lastText, /INVALID_INPUT: the arguments for browser_click are not valid JSON/);
  });

  it('step limit ends the run', async () => {
    let i = 0;
    const { provider } = await anthropic(() => ({ toolCalls: [{ name: 'think', input: { thought: `idea ${i++}` } }] }));
    const o = await run(provider, { maxSteps: 3 }).outcome;
    assert.equal(o.status, 'max-steps');
    assert.equal(o.steps, 3);
  });
});

describe('agent loop: hybrid mode and confirmations', function () {
  this.timeout(60_000);
  let sessions: SessionManager;
  let site: TestServer;
  let llm: LlmServer | undefined;
  before(async () => {
    site = await startServer({ '/': FORM });
    sessions = new SessionManager(() => ({ mode: 'launch', launch: TEST_LAUNCH, cdpTimeoutMs: 10_000 }));
    const tab = await (await sessions.ensure()).activeTab();
    const s = await tab.session();
    const loaded = s.waitFor('Page.loadEventFired', () => true, 10_000);
    await s.send('Page.navigate', { url: site.url });
    await loaded;
  });
  after(async () => {
    await sessions?.dispose();
    await site?.close();
    await llm?.close();
  });

  it('hybrid: a vision model gets screenshot tools, a screenshot after each action, and only the last two images', async () => {
    llm = await startAnthropicServer((r) => {
      if (r.index < 3) return { toolCalls: [{ name: 'browser_type', input: { ref: refOf(r.allText, 'textbox', 'Name'), text: `x${r.index}` } }] };
      return { toolCalls: [{ name: 'finish', input: { success: true, summary: 'typed' } }] };
    });
    const events: AgentEvent[] = [];
    let waited = '';
    const o = await runAgent({
      task: 'type three times', provider: anthropicProvider({ apiKey: 'k', model: 'claude-test', baseURL: llm.baseURL }), tools: realTools(), ctx: toolContext(sessions),
      mode: 'hybrid', maxSteps: 10, signal: new AbortController().signal, onEvent: (e) => {
        events.push(e);
        if (e.type === 'status' && e.text) waited = e.text;
      },
      // Typing always asks here; a person takes 400 ms to answer Allow.
      hooks: { decide: realDecider(async () => (await new Promise((r) => setTimeout(r, 400)), 'allow'), { alwaysConfirmTools: ['browser_type'] }).decide },
    });
    assert.equal(o.status, 'success', o.summary);
    const tools = llm.requests[0].body.tools.map((t: any) => t.name);
    assert.ok(tools.includes('browser_screenshot'));
    const last = llm.requests.at(-1)!.body.messages;
    const images = JSON.stringify(last).match(/"type":"image"/g) ?? [];
    assert.equal(images.length, 2, 'only the two newest screenshots are sent');
    assert.equal((JSON.stringify(last).match(/Screenshot from step \d omitted/g) ?? []).length, 1);
    assert.match(waited, /Waiting for your confirmation/);
    const typeCards = events.filter((e) => e.type === 'step-end' && e.tool === 'browser_type') as any[];
    assert.ok(typeCards.every((c) => c.decision.outcome === 'allowed'));
  });
});
