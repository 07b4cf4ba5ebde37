import assert from 'node:assert/strict';
import { runAgent } from '../../src/agent/loop';
import { FromWebview, ToWebview, type ToWebviewMessage } from '../../src/vscode/chat/messages';
import { locateBox, Screencast, type FrameMessage } from '../../src/vscode/chat/screencast';
import { TaskTranscript } from '../../src/vscode/chat/transcript';
import { anthropicProvider } from '../../src/agent/providers/anthropic';
import { SessionManager } from '../../src/session/manager';
import { resolveRef, takeSnapshot } from '../../src/snapshot';
import { TEST_LAUNCH } from '../helpers/chromium';
import { startAnthropicServer, type LlmServer } from '../helpers/llmServers';
import { startServer, type TestServer } from '../helpers/servers';
import { realDecider, realTools, toolContext } from '../helpers/tools';

describe('chat panel: messages, transcript, live view', function () {
  this.timeout(60_000);
  let sessions: SessionManager;
  let site: TestServer;
  let llm: LlmServer | undefined;
  before(async () => {
    // A checkout page: the default policy asks before its Buy button is pressed.
    site = await startServer({ '/checkout': '<title>Shop</title><h1>Shop</h1><button id=buy style="position:absolute;left:100px;top:200px;width:120px;height:40px">Buy</button>' });
    sessions = new SessionManager(() => ({ mode: 'launch', launch: TEST_LAUNCH, cdpTimeoutMs: 10_000 }));
    const tab = await (await sessions.ensure()).activeTab();
    const s = await tab.session();
    const loaded = s.waitFor('Page.loadEventFired', () => true, 10_000);
    await s.send('Page.navigate', { url: `${site.origin}/checkout` });
    await loaded;
  });
  after(async () => {
    await sessions?.dispose();
    await site?.close();
    await llm?.close();
  });

  it('validates webview messages both ways and rejects anything else', () => {
    assert.ok(FromWebview.safeParse({ type: 'run', task: '  buy milk ' }).success);
    assert.equal(FromWebview.parse({ type: 'run', task: '  buy milk ' }).type, 'run');
    assert.ok(!FromWebview.safeParse({ type: 'run', task: '   ' }).success, 'empty task');
    assert.ok(!FromWebview.safeParse({ type: 'eval', code: 'x' }).success, 'unknown type');
    assert.ok(!FromWebview.safeParse({ type: 'selectMode', mode: 'turbo' }).success);
    assert.ok(!FromWebview.safeParse({ type: 'setKey', provider: 'vscode-lm' }).success);
    assert.ok(ToWebview.safeParse({ type: 'frame', data: 'AAAA', width: 10, height: 10 }).success);
    assert.ok(!ToWebview.safeParse({ type: 'card', taskId: 'x', card: { id: 'a', tool: 't', state: 'weird' } }).success);
  });

  it('turns a real run into streamed text, one card per step (with decision) and a result; history drops screenshots', async () => {
    llm = await startAnthropicServer((r) => {
      if (r.index === 0) return { text: 'Looking at the page.', toolCalls: [{ name: 'browser_screenshot', input: {} }] };
      if (r.index === 1) return { toolCalls: [{ name: 'browser_click', input: { ref: /\[(\d+)\] button "Buy"/.exec(r.allText)![1] } }] };
      // The click was declined: a model that says it succeeded anyway would be told so (test/agent/verify.test.ts).
      return { text: 'Stopped before paying.', toolCalls: [{ name: 'finish', input: { success: false, summary: 'Found the Buy button; you declined the click, so nothing was bought.', data: { price: 3 } } }] };
    });
    const t = new TaskTranscript('t1', 'Buy the thing but stop before paying', 'anthropic');
    const posted: ToWebviewMessage[] = [];
    const outcome = await runAgent({
      task: t.record.task, provider: anthropicProvider({ apiKey: 'k', model: 'claude-test', baseURL: llm.baseURL }), tools: realTools(), ctx: toolContext(sessions),
      mode: 'hybrid', maxSteps: 10, signal: new AbortController().signal,
      hooks: { decide: realDecider(async () => 'refuse').decide },
      onEvent: (e) => posted.push(...t.apply(e)),
    });
    assert.equal(outcome.status, 'failure');
    for (const m of posted) assert.ok(ToWebview.safeParse(m).success, `valid: ${JSON.stringify(m).slice(0, 200)}`);
    const kinds = t.record.entries.map((e) => (e.kind === 'card' ? `card:${e.card.tool}:${e.card.state}` : e.kind));
    assert.deepEqual(kinds, ['user', 'card:browser_snapshot:ok', 'assistant', 'card:browser_screenshot:ok', 'card:browser_click:error', 'assistant', 'card:finish:error', 'result']);
    const shot = t.record.entries.find((e) => e.kind === 'card' && e.card.tool === 'browser_screenshot');
    // A real image: the data URL's type matches the bytes' signature (PNG or JPEG).
    assert.match((shot as any).card.thumbnail, /^data:image\/(png;base64,iVBORw0KGgo|jpeg;base64,\/9j)/);
    const click = t.record.entries.find((e) => e.kind === 'card' && e.card.tool === 'browser_click') as any;
    assert.equal(click.card.decision, 'Declined by you');
    assert.match(click.card.reason, /checkout/i, 'the reason names why the page is sensitive');
    assert.equal(click.card.code, 'BLOCKED_BY_POLICY');
    assert.ok(posted.some((m) => m.type === 'delta') && posted.some((m) => m.type === 'tokens'));
    assert.deepEqual((t.record.entries.at(-1) as any).data, { price: 3 });
    // The snapshot reached the model fenced; the person reads the page text without the fences.
    const snap = t.record.entries.find((e) => e.kind === 'card' && e.card.tool === 'browser_snapshot') as any;
    assert.match(snap.card.output, /button "Buy"/);
    assert.match(llm.requests.map((q) => JSON.stringify(q)).join(''), /<page-content id=[0-9a-f]+/, 'the model got the fence');
    assert.doesNotMatch(JSON.stringify(t.record), /<\/?page-content/, 'no fence in what the panel shows');
    const saved = t.persistable();
    assert.ok(saved.entries.every((e) => e.kind !== 'card' || !e.card.thumbnail));
    assert.ok(JSON.stringify(saved).length < 20_000);
  });

  it('streams the live view of a headless page and locates the acted-on element', async () => {
    const frames: FrameMessage[] = [];
    const cast = new Screencast((m) => frames.push(m));
    const tab = await (await sessions.ensure()).activeTab();
    await cast.follow(tab);
    await tab.evaluate(`document.body.style.background = 'rgb(200, 30, 30)'`);
    const end = Date.now() + 10_000;
    while (!frames.length && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    await cast.stop();
    assert.ok(frames.length > 0, 'got frames from a headless browser');
    assert.ok(Buffer.from(frames[0].data, 'base64').subarray(0, 2).equals(Buffer.from([0xff, 0xd8])), 'JPEG');
    assert.ok(frames[0].width > 0 && frames[0].height > 0);
    assert.deepEqual(await locateBox(tab, { selector: '#buy' }), { x: 100, y: 200, width: 120, height: 40 });
    assert.deepEqual(await locateBox(tab, { x: 50, y: 60 }), { x: 38, y: 48, width: 24, height: 24 });
    assert.equal(await locateBox(tab, { selector: '#nope' }), undefined);
    // Through the snapshot's own ref resolver, as the chat panel does.
    const ref = /\[(\w+)\] button "Buy"/.exec(await takeSnapshot(tab))![1];
    assert.deepEqual(await locateBox(tab, { ref }, resolveRef), { x: 100, y: 200, width: 120, height: 40 });
    assert.equal(await locateBox(tab, { ref: '9999' }, resolveRef), undefined);
  });
});
