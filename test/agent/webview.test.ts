import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chatHtml } from '../../src/vscode/chat/html';
import { FromWebview, type ToWebviewMessage } from '../../src/vscode/chat/messages';
import { BrowserSession } from '../../src/session/browserSession';
import type { Tab } from '../../src/session/tab';
import { TEST_LAUNCH } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/servers';

/**
 * The built webview (dist/media/chat.js, media/chat.css, codicons) in real Chromium under the
 * same CSP the extension sends, with acquireVsCodeApi played by the test: what the user sees and
 * what the webview posts back. The in-host part (VS Code itself) is the e2e suite's.
 */
const ROOT = process.cwd();
const ARTIFACTS = join(ROOT, 'test-artifacts', 'agent');

const FAKE_API = `
  window.__sent = [];
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
  let state = undefined;
  // A dark theme's variables, as VS Code injects them, so screenshots look like the real panel.
  const theme = { 'foreground': '#cccccc', 'sideBar-background': '#181818', 'editor-background': '#1f1f1f', 'button-background': '#0078d4', 'button-foreground': '#ffffff',
    'button-secondaryBackground': '#313131', 'button-secondaryForeground': '#cccccc', 'input-background': '#313131', 'input-foreground': '#cccccc', 'panel-border': '#2b2b2b',
    'focusBorder': '#0078d4', 'descriptionForeground': '#9d9d9d', 'textLink-foreground': '#4daafc', 'errorForeground': '#f85149', 'badge-background': '#616161', 'badge-foreground': '#f8f8f8',
    'textCodeBlock-background': '#2b2b2b', 'testing-iconPassed': '#73c991', 'testing-iconFailed': '#f14c4c', 'font-family': 'system-ui, sans-serif', 'font-size': '13px', 'editor-font-family': 'monospace' };
  document.addEventListener('DOMContentLoaded', () => { for (const [k, v] of Object.entries(theme)) document.documentElement.style.setProperty('--vscode-' + k, v); });
  window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__sent.push(m), getState: () => state, setState: (s) => { state = s; } });
`;

describe('chat panel webview in real Chromium', function () {
  this.timeout(60_000);
  let server: TestServer;
  let browser: BrowserSession;
  let tab: Tab;

  const file = (rel: string, type: string) => (_req: any, res: any) => {
    res.writeHead(200, { 'content-type': type });
    res.end(readFileSync(join(ROOT, rel)));
  };

  before(async () => {
    server = await startServer({
      '/dist/media/chat.js': file('dist/media/chat.js', 'text/javascript'),
      '/dist/media/codicon.css': file('dist/media/codicon.css', 'text/css'),
      '/media/chat.css': file('media/chat.css', 'text/css'),
    });
    const webview = { cspSource: server.origin, asWebviewUri: (u: { path: string }) => ({ toString: () => `${server.origin}${u.path}` }) };
    const joinPath = (base: { path: string }, ...p: string[]) => ({ path: [base.path, ...p].join('/') });
    server.route('/', chatHtml(webview as any, { path: '' } as any, joinPath as any));
    browser = await BrowserSession.launch(TEST_LAUNCH);
    tab = await browser.activeTab();
    const s = await tab.session();
    await s.send('Page.addScriptToEvaluateOnNewDocument', { source: FAKE_API });
    await s.send('Emulation.setDeviceMetricsOverride', { width: 420, height: 900, deviceScaleFactor: 1, mobile: false });
    const loaded = s.waitFor('Page.loadEventFired', () => true, 10_000);
    await s.send('Page.navigate', { url: server.url });
    await loaded;
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Icons on screen without their picture (the shipped codicon.css has only the icons media/chat.ts names). */
  const iconsWithoutGlyph = () => q<string[]>(`[...document.querySelectorAll('.codicon')].filter((e) => e.getClientRects().length && !/^url\\("data:image\\/svg/.test(getComputedStyle(e).webkitMaskImage || getComputedStyle(e).maskImage)).map((e) => e.className)`);
  const post = (m: ToWebviewMessage) => tab.evaluate(`window.postMessage(${JSON.stringify(m)}, '*'); new Promise((r) => setTimeout(r, 30))`);
  const sent = () => tab.evaluate<any[]>('window.__sent');
  const q = <T>(expr: string) => tab.evaluate<T>(expr);
  async function shot(name: string) {
    const { data } = await (await tab.session()).send('Page.captureScreenshot', { format: 'png' });
    writeFileSync(join(ARTIFACTS, `${name}.png`), Buffer.from(data, 'base64'));
  }
  async function key(k: string, code = k, text?: string) {
    const s = await tab.session();
    const vk = ({ Enter: 13, Escape: 27, Tab: 9 } as Record<string, number>)[k] ?? 0;
    await s.send('Input.dispatchKeyEvent', { type: 'keyDown', key: k, code, windowsVirtualKeyCode: vk, text });
    await s.send('Input.dispatchKeyEvent', { type: 'keyUp', key: k, code, windowsVirtualKeyCode: vk });
  }

  it('loads under the strict CSP, says ready, and renders the model and mode pickers and history', async () => {
    assert.deepEqual((await sent())[0], { type: 'ready' });
    // Before the models are listed the picker says so; it is never an empty box.
    assert.deepEqual(await q(`[...document.querySelectorAll('#model option')].map((o) => o.textContent)`), ['Loading models…']);
    const init: ToWebviewMessage = {
      type: 'init',
      models: [{ provider: 'vscode-lm', model: 'gpt-4o', label: 'copilot · GPT-4o' }, { provider: 'anthropic', model: 'claude-x', label: 'Anthropic · claude-x' }],
      selected: { provider: 'anthropic', model: 'claude-x', label: 'Anthropic · claude-x' },
      mode: 'dom',
      history: [{ id: 'h1', task: 'Find a flight', status: 'success', startedAt: 1 }, { id: 'h2', task: `Open http://127.0.0.1:8080/greet, ${'greet Ada and mark the page '.repeat(4)}`, status: 'failure', startedAt: 0 }],
      running: false,
    };
    // No model chosen (or the chosen one is gone): the picker asks for one instead of showing one not in use.
    await post({ ...init, selected: undefined });
    assert.equal(await q(`document.querySelector('#model').selectedOptions[0].textContent`), 'Choose a model');
    await post(init);
    // Compact picker: the model's name; the vendor in the tooltip.
    assert.deepEqual(await q(`[...document.querySelectorAll('#model option')].map((o) => o.textContent)`), ['GPT-4o', 'claude-x']);
    assert.equal(await q(`document.querySelector('#model').selectedOptions[0].textContent`), 'claude-x');
    assert.equal(await q(`document.querySelector('#model').title`), 'Model: Anthropic · claude-x');
    assert.equal(await q(`document.querySelector('#mode').value`), 'dom');
    assert.deepEqual(await q(`[...document.querySelectorAll('#mode option')].map((o) => o.textContent)`), ['Auto', 'Text', 'Vision'], 'words a person knows, not dom/hybrid');
    assert.equal(await q(`document.querySelector('.history h2').textContent`), 'Recent tasks');
    const dots = await q(`(() => { const p = document.querySelector('.history'); p.hidden = false; const r = [...document.querySelectorAll('.history-item .dot')].map((d) => [d.getBoundingClientRect().width, d.getBoundingClientRect().height].join('x')); p.hidden = true; return r; })()`);
    assert.deepEqual(dots, ['8x8', '8x8'], 'a long task does not squeeze its dot');
    assert.equal(await q(`document.querySelector('.history-item .h-task').textContent`), 'Find a flight');
    assert.equal(await q(`document.querySelector('.history-item .h-meta').textContent`), 'Done', 'the same words as Task History');
    assert.equal(await q(`document.querySelector('.history').hidden`), true, 'history starts collapsed');
    assert.equal(await q(`document.querySelector('#live').open`), true, 'the live view starts open: the person watches what the agent does');
    assert.match(await q<string>(`getComputedStyle(document.querySelector('.codicon-add')).webkitMaskImage`), /^url\("data:image\/svg\+xml,/, 'the codicon from the extension, as a mask');
    assert.equal(await q(`getComputedStyle(document.querySelector('.codicon-add')).width`), '16px');
    assert.deepEqual(await q('window.__violations'), []);
  });

  it('sends a typed task with Enter, shows streamed text, step cards, live frame and highlight; Escape stops', async () => {
    await q(`document.querySelector('#task').focus()`);
    await (await tab.session()).send('Input.insertText', { text: 'Buy milk but stop before paying' });
    await key('Enter', 'Enter', '\r');
    assert.deepEqual((await sent()).at(-1), { type: 'run', task: 'Buy milk but stop before paying' });

    const id = 't1';
    await post({ type: 'task', record: { id, task: 'Buy milk but stop before paying', startedAt: Date.now(), provider: 'Anthropic · claude-x', status: 'running', entries: [{ kind: 'user', text: 'Buy milk but stop before paying' }] }, running: true });
    // Before the model answers: a "working…" row, so the panel never looks idle while it thinks.
    assert.equal(await q(`document.querySelector('#working').hidden`), false, 'working row while the model thinks');
    await post({ type: 'delta', taskId: id, text: 'Opening the ' });
    await post({ type: 'delta', taskId: id, text: 'shop.' });
    // A real page's picture for the live view and the thumbnail.
    const other = await browser.newTab(`data:text/html,<body style="font:40px sans-serif;background:%23fff"><h1>Milk shop</h1><button style="font-size:40px">Checkout</button>`);
    await new Promise((r) => setTimeout(r, 300));
    const jpeg = await (await other.session()).send('Page.captureScreenshot', { format: 'jpeg', quality: 40 });
    await browser.closeTab(other.targetId);
    await browser.selectTab(tab.targetId);
    assert.equal(await q(`document.querySelector('#live').open`), true, 'open without a click');
    await post({ type: 'session', live: true, label: 'Live · launched', note: '', url: 'https://shop.example/' });
    await post({ type: 'frame', data: jpeg!.data, width: 420, height: 900 });
    await post({ type: 'card', taskId: id, card: { id: 's1', tool: 'browser_click', target: 'button "Checkout"', input: { ref: '12' }, state: 'running' } });
    assert.equal(await q(`document.querySelector('#working').hidden`), true, 'the running card shows progress instead');
    assert.equal(await q(`document.querySelector('#live-url').textContent`), 'https://shop.example/');
    await post({ type: 'highlight', box: { x: 100, y: 200, width: 120, height: 40 }, label: 'browser_click' });
    assert.equal(await q(`document.querySelector('.highlight').hidden`), false);
    assert.equal(await q(`document.querySelector('#stop').hidden`), false);
    assert.equal(await q(`document.querySelector('#run').hidden`), true);
    await shot('1-running-step');
    await post({ type: 'card', taskId: id, card: { id: 's1', tool: 'browser_click', target: 'button "Checkout"', input: { ref: '12' }, state: 'error', code: 'BLOCKED_BY_POLICY', summary: 'declined', output: 'BLOCKED_BY_POLICY: The user declined browser_click.', durationMs: 1234, decision: 'Declined by you', reason: 'looks like a payment', message: 'The user declined browser_click.', hint: 'Do not repeat it.' } });
    assert.equal(await q(`document.querySelector('[data-tool=browser_click] .result').textContent`), 'The user declined browser_click.', 'the message, not the code');
    assert.equal(await q(`document.querySelector('[data-tool=browser_click] .hint')`), null, "a refusal's hint is for the model, not shown");
    // A notify-level step says why on its card, without expanding it (there is no toast for it).
    await post({ type: 'card', taskId: id, card: { id: 's5', tool: 'browser_navigate', target: 'https://shop.example/login', input: { url: 'https://shop.example/login' }, state: 'ok', summary: 'Navigated', decision: 'Notified', reason: 'The destination URL mentions "login"' } });
    assert.equal(await q(`document.querySelector('[data-tool=browser_navigate] .hint.noticed').textContent.trim()`), 'The destination URL mentions "login"');
    await q(`document.querySelector('.card[data-tool=browser_navigate]').remove()`);
    await post({ type: 'card', taskId: id, card: { id: 's3', tool: 'browser_navigate', input: { url: 'x' }, state: 'error', code: 'NAVIGATION_FAILED', message: 'net::ERR_NAME_NOT_RESOLVED at https://nope.example', hint: 'Check the URL.' } });
    assert.equal(await q(`document.querySelector('[data-tool=browser_navigate] .hint').textContent.trim()`), 'Check the URL.', 'a fix-it hint shows without expanding the card');
    // A failed finish quotes what the model wrote, hint for the model included: no lightbulb for the person.
    await post({ type: 'card', taskId: id, card: { id: 's4', tool: 'finish', input: {}, state: 'error', message: 'Greeted Ada, but the script was refused.', hint: 'Do not repeat it; continue another way or finish and explain.' } });
    assert.equal(await q(`document.querySelector('[data-tool=finish] .hint')`), null, "the model's hint is not shown on finish");
    assert.equal(await q(`getComputedStyle(document.querySelector('[data-tool=browser_click] .safety') ?? document.body).textTransform`), 'none', 'the safety reason is not shouted');
    await post({ type: 'card', taskId: id, card: { id: 's2', tool: 'browser_screenshot', input: {}, state: 'ok', summary: '', durationMs: 80, thumbnail: `data:image/jpeg;base64,${jpeg!.data}` } });
    await post({ type: 'tokens', taskId: id, estimate: 12345 });
    assert.equal(await q(`document.querySelector('.msg.assistant .text').textContent`), 'Opening the shop.');
    assert.equal(await q(`document.querySelectorAll('.card').length`), 4, 'one card per step, updated in place');
    assert.equal(await q(`document.querySelector('.card .badge.decision').textContent`), 'Declined by you');
    assert.equal(await q(`document.querySelector('.card .duration').textContent`), '1.2 s');
    assert.ok(await q(`document.querySelector('.card .thumb').naturalWidth > 0`));
    assert.ok(await q(`document.querySelector('#live-frame').naturalWidth > 0`));
    assert.match(await q<string>(`document.querySelector('.tokens').textContent`), /12,345 tokens/);

    // Keyboard: focus the first card's summary, Enter expands it and shows input/output.
    await q(`document.querySelector('.card summary').focus()`);
    await key('Enter', 'Enter', '\r');
    assert.equal(await q(`document.querySelector('.card').open`), true);
    assert.match(await q<string>(`document.querySelector('.card .detail').textContent`), /"ref": "12"[\s\S]*The user declined/);
    await shot('2-cards-expanded');

    await key('Escape', 'Escape');
    assert.deepEqual((await sent()).at(-1), { type: 'stop' });
    await post({ type: 'entry', taskId: id, entry: { kind: 'result', status: 'stopped', summary: 'Stopped by the user.' } });
    await post({ type: 'running', running: false });
    assert.equal(await q(`document.querySelector('#run').hidden`), false);
    // Said once: no "Stopped by the user." under "Stopped by you".
    assert.equal(await q<string>(`document.querySelector('.result-box').textContent.trim()`), 'Stopped by you');
    await shot('3-stopped');
    // The browser goes away: the picture is marked stale and says why, late frames are ignored.
    await post({ type: 'session', live: false, label: 'No browser', note: 'Not live: no browser is running.' });
    assert.equal(await q(`document.querySelector('#live-frame').classList.contains('stale')`), true);
    assert.equal(await q(`document.querySelector('#live-state').textContent`), 'No browser');
    // A second task keeps the first conversation above it.
    await post({ type: 'task', record: { id: 't2', task: 'Second task', startedAt: Date.now(), provider: 'x', status: 'running', entries: [{ kind: 'user', text: 'Second task' }] }, running: true, append: true });
    assert.deepEqual(await q(`[...document.querySelectorAll('#log .msg.user')].map((e) => e.textContent)`), ['You' + 'Buy milk but stop before paying', 'You' + 'Second task'].map((t) => t.replace('You', ' You')));
    await post({ type: 'running', running: false });
  });

  it('ignores malformed messages and never renders page text as HTML', async () => {
    const before = await q<number>(`document.querySelectorAll('.card').length`);
    await tab.evaluate(`window.postMessage({ type: 'card', taskId: 't2', card: { id: 'x' } }, '*'); new Promise((r) => setTimeout(r, 30))`);
    assert.equal(await q(`document.querySelectorAll('.card').length`), before);
    await post({ type: 'card', taskId: 't2', card: { id: 's9', tool: 'browser_snapshot', input: {}, state: 'ok', summary: '<img src=x onerror="window.__pwned=1">' } });
    assert.equal(await q(`window.__pwned`), undefined);
    assert.equal(await q(`document.querySelector('[data-tool=browser_snapshot] .result').textContent`), '<img src=x onerror="window.__pwned=1">');
  });

  it('history: opening the panel and picking a model or mode post the right messages', async () => {
    await q(`document.querySelector('#history-toggle').click()`);
    assert.equal(await q(`document.querySelector('.history').hidden`), false);
    await q(`document.querySelector('.history-item').click()`);
    assert.deepEqual((await sent()).at(-1), { type: 'openTask', id: 'h1' });
    // The store changed (a replay ended): the list is the store's again, without reopening the panel.
    await post({ type: 'history', history: [{ id: 'h3', task: 'Replay: Find a flight', status: 'success', startedAt: 2 }, { id: 'h1', task: 'Find a flight', status: 'success', startedAt: 1 }] });
    assert.deepEqual(await q(`[...document.querySelectorAll('.history-item .h-task')].map((e) => e.textContent)`), ['Replay: Find a flight', 'Find a flight']);
    await post({ type: 'history', history: [] });
    assert.equal(await q(`document.querySelector('.history .empty').textContent`), 'No tasks yet.');
    await q(`(() => { const s = document.querySelector('#model'); s.value = '0'; s.dispatchEvent(new Event('change')); })()`);
    assert.deepEqual((await sent()).at(-1), { type: 'selectModel', choice: { provider: 'vscode-lm', model: 'gpt-4o', label: 'copilot · GPT-4o' } });
    await q(`(() => { const s = document.querySelector('#mode'); s.value = 'hybrid'; s.dispatchEvent(new Event('change')); })()`);
    assert.deepEqual((await sent()).at(-1), { type: 'selectMode', mode: 'hybrid' });
    assert.deepEqual(await q('window.__violations'), [], 'no CSP violations during the whole session');
  });

  it('a thread: New Task is a labelled button; an opened thread shows every turn; a lost task comes back; Not verified is never Done', async () => {
    const newTask = `document.querySelector('#new-task')`;
    assert.equal(await q(`${newTask}.textContent.trim()`), 'New Task', 'a visible, labelled button');
    assert.ok(await q<number>(`${newTask}.getBoundingClientRect().width`) > 40);
    const turn = (id: string, task: string, entries: object[]) => ({ id, threadId: 'a', task, startedAt: Date.now(), provider: 'x', status: 'success', entries: [{ kind: 'user', text: task }, ...entries] });
    // A thread opened from the history: both turns, the line saying it goes on, and a follow-up placeholder.
    await post({
      type: 'task', running: false, notice: 'A conversation from 3 Mar, 14:02. Type a message to continue it, or start a New Task.',
      earlier: [turn('a', 'Set the name to Ada', [{ kind: 'result', status: 'success', summary: 'Saved Ada.' }]) as any],
      record: turn('b', 'Do it again with Grace', [{ kind: 'result', status: 'success', summary: 'Saved Grace.' }]) as any,
    });
    assert.deepEqual(await q(`[...document.querySelectorAll('#log section.task .msg.user .text')].map((e) => e.textContent)`), ['Set the name to Ada', 'Do it again with Grace']);
    assert.match(await q<string>(`document.querySelector('.notice.resumed').textContent`), /A conversation from 3 Mar, 14:02/);
    assert.match(await q<string>(`document.querySelector('#task').placeholder`), /follow-up/);
    // A follow-up appends below; the notice goes, the turns stay.
    await post({ type: 'task', record: turn('c', 'And Linus', []) as any, running: true, append: true });
    assert.equal(await q(`document.querySelectorAll('#log section.task').length`), 3);
    assert.equal(await q(`document.querySelector('.notice.resumed')`), null);
    assert.equal(await q(`${newTask}.disabled`), true, 'no New Task while a task runs');
    // The model was never reached (a 401): the task is back in the box…
    await post({ type: 'entry', taskId: 'c', entry: { kind: 'result', status: 'error', summary: '401 invalid key' } });
    await post({ type: 'running', running: false });
    await post({ type: 'draft', text: 'And Linus' });
    assert.equal(await q(`document.querySelector('#task').value`), 'And Linus');
    // …but never over what the person typed since.
    await q(`document.querySelector('#task').value = 'something new'`);
    await post({ type: 'draft', text: 'And Linus' });
    assert.equal(await q(`document.querySelector('#task').value`), 'something new');
    await q(`document.querySelector('#task').value = ''`);
    // Not verified: what failed first, the claim as the model's words, no green, no Done.
    await post({ type: 'task', record: turn('d', 'Save and delete', []) as any, running: true, append: true });
    await post({ type: 'entry', taskId: 'd', entry: { kind: 'result', status: 'unverified', summary: 'Typed Ada, saved it, and deleted the account.', reason: '3 actions failed and were not redone:\n• type textbox "Name": it was from an earlier page\n• click button "Save": it was from an earlier page\n• click button "Delete account": it was from an earlier page' } });
    await post({ type: 'running', running: false });
    const box = `document.querySelector('#log section.task:last-of-type .result-box')`;
    assert.equal(await q(`${box}.querySelector('.who').textContent.trim()`), 'Not verified');
    assert.equal(await q(`${box}.classList.contains('ok')`), false);
    assert.match(await q<string>(`${box}.querySelector('.reason').innerText`), /^3 actions failed and were not redone:\n• type textbox "Name": it was from an earlier page\n• click button "Save"/, 'one line per action');
    assert.equal(await q(`${box}.querySelector('.claim').textContent`), 'The model said: Typed Ada, saved it, and deleted the account.');
    assert.doesNotMatch(await q<string>(`${box}.textContent`), /Done/);
    await shot('4-thread-not-verified');
    // New Task posts newTask; the panel is emptied by the init that answers it.
    await q(`${newTask}.click()`);
    assert.deepEqual((await sent()).at(-1), { type: 'newTask' });
    await post({ type: 'init', models: [], mode: 'auto', history: [{ id: 'a', task: 'Set the name to Ada', status: 'unverified', startedAt: 1, when: '3 Mar, 14:09', turns: 4 }], running: false });
    assert.ok(await q(`!!document.querySelector('#log .welcome')`));
    assert.doesNotMatch(await q<string>(`document.querySelector('#task').placeholder`), /follow-up/);
    assert.equal(await q(`document.querySelector('.history-item .h-when').textContent`), '3 Mar, 14:09', 'each thread with its time');
    assert.equal(await q(`document.querySelector('.history-item .h-meta').textContent`), 'Not verified');
    assert.match(await q<string>(`document.querySelector('.history-item').title`), /4 messages/);
    // The task keeps the row's width at the side bar's default size; outcome, length and time go below it.
    await post({ type: 'history', history: [
      { id: 'a', task: 'Open http://127.0.0.1:8080/profile, set the name to Ada and save it', status: 'unverified', startedAt: 1, when: '3 Mar, 14:09', turns: 4 },
      { id: 'b', task: 'What is the heading of this page?', status: 'success', startedAt: 0, when: '3 Mar, 13:55', turns: 1 },
    ] });
    await q(`document.querySelector('#history-toggle').click()`);
    assert.ok(await q<number>(`document.querySelector('.history-item .h-task').getBoundingClientRect().width`) > 200, 'the task is not squeezed by its meta');
    assert.equal(await q(`document.querySelector('.history-item .h-turns').textContent`), '4');
    await shot('5-history-threads');
    await q(`document.querySelector('#history-toggle').click()`);
  });

  it('a model in one minute: providers with their status, Run disabled with the reason, a model error with its buttons', async () => {
    const providers = [
      { provider: 'vscode-lm', title: 'VS Code LM', ready: false, detail: 'No models: sign in to GitHub Copilot, or install an extension that provides language models', keySaved: false },
      { provider: 'anthropic', title: 'Anthropic', ready: false, detail: 'No API key saved', endpoint: 'https://api.anthropic.com', model: 'claude-x', keySaved: false },
      { provider: 'openai', title: 'OpenAI-compatible', ready: false, detail: 'http://127.0.0.1:9/v1 does not answer (ECONNREFUSED)', endpoint: 'http://127.0.0.1:9/v1', model: 'm1', keySaved: false,
        local: [{ name: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1', models: ['qwen3:8b'] }] },
    ] as const;
    const models = [{ provider: 'anthropic', model: 'claude-x', label: 'Anthropic · claude-x' }, { provider: 'openai', model: 'm1', label: 'OpenAI-compatible · m1' }] as const;
    await post({ type: 'init', models: [...models], selected: models[1], mode: 'auto', history: [], running: false, providers: providers as any, usable: { ok: false, reason: `OpenAI-compatible: ${providers[2].detail}` } });
    // The empty panel with no usable model opens the setup: each provider, its status, its buttons.
    assert.equal(await q(`document.querySelector('#setup').hidden`), false, 'the setup shows itself');
    assert.deepEqual(await q(`[...document.querySelectorAll('.setup-row .setup-title')].map((e) => e.textContent)`), ['VS Code LM', 'Anthropic', 'OpenAI-compatible']);
    assert.match(await q<string>(`document.querySelector('.setup-row[data-provider="openai"] .setup-detail').textContent`), /does not answer \(ECONNREFUSED\)/);
    assert.match(await q<string>(`document.querySelector('.setup-row[data-provider="openai"] .setup-local').textContent`), /Ollama answers at http:\/\/127\.0\.0\.1:11434\/v1 \(1 model\)/);
    // The picker groups by provider and says which need setup.
    assert.deepEqual(await q(`[...document.querySelectorAll('#model optgroup')].map((g) => g.label)`), ['Anthropic — needs setup', 'OpenAI-compatible — needs setup']);
    // Run is disabled, with the reason in words; Enter keeps the task in the box.
    assert.equal(await q(`document.querySelector('#run').disabled`), true);
    assert.equal(await q(`document.querySelector('#run-reason').hidden`), false);
    assert.match(await q<string>(`document.querySelector('#run-reason').textContent`), /OpenAI-compatible: http:\/\/127\.0\.0\.1:9\/v1 does not answer/);
    const before = (await sent()).length;
    await q(`document.querySelector('#task').focus()`);
    await (await tab.session()).send('Input.insertText', { text: 'Read the heading' });
    await key('Enter', 'Enter', '\r');
    assert.equal((await sent()).length, before, 'nothing sent without a model');
    assert.equal(await q(`document.querySelector('#task').value`), 'Read the heading', 'the task stays');
    await shot('6-setup-no-model');
    assert.deepEqual(await iconsWithoutGlyph(), [], 'every icon of the setup has its glyph');
    // Buttons ask the extension for what is missing; Use Ollama names only the server the setup found.
    await q(`[...document.querySelectorAll('.setup-row[data-provider="anthropic"] button')].find((b) => b.textContent === 'Set API Key…').click()`);
    assert.deepEqual((await sent()).at(-1), { type: 'setup', action: 'setKey', provider: 'anthropic' });
    await q(`[...document.querySelectorAll('.setup-local button')][0].click()`);
    assert.deepEqual((await sent()).at(-1), { type: 'useLocal', baseURL: 'http://127.0.0.1:11434/v1' });
    assert.equal(FromWebview.safeParse({ type: 'useLocal', baseURL: 'https://attacker.example/v1' }).success, false, 'a webview cannot point the model elsewhere');
    // Once set up: Run enabled, no reason, the provider marked in use.
    await post({ type: 'models', models: [...models], selected: models[1], providers: providers.map((p) => (p.provider === 'openai' ? { ...p, ready: true, detail: 'http://127.0.0.1:11434/v1 answers · 1 model' } : p)) as any, usable: { ok: true } });
    assert.equal(await q(`document.querySelector('#run').disabled`), false);
    assert.equal(await q(`document.querySelector('#run-reason').hidden`), true);
    assert.match(await q<string>(`document.querySelector('.setup-row[data-provider="openai"] .setup-head').textContent`), /in use/);
    assert.equal(await q(`document.querySelector('#task').value`), 'Read the heading', 'still there');
    // A model error: the endpoint named, its buttons; Retry sends the task again and takes it out of the box.
    await key('Enter', 'Enter', '\r');
    assert.deepEqual((await sent()).at(-1), { type: 'run', task: 'Read the heading' });
    const rec = { id: 'e1', task: 'Read the heading', startedAt: Date.now(), provider: 'x', status: 'running', entries: [{ kind: 'user', text: 'Read the heading' }] };
    await post({ type: 'task', record: rec as any, running: true });
    assert.equal(await q(`document.querySelector('#setup').hidden`), true, 'the setup steps aside for the task');
    await post({ type: 'entry', taskId: 'e1', entry: { kind: 'result', status: 'error', summary: 'the endpoint http://127.0.0.1:11434/v1 refused the API key (401): Incorrect API key', fixes: ['Set API Key', 'Retry', 'Show Log'] } });
    await post({ type: 'running', running: false });
    await post({ type: 'draft', text: 'Read the heading' });
    const box = `document.querySelector('#log section.task:last-of-type .result-box')`;
    assert.match(await q<string>(`${box}.textContent`), /refused the API key \(401\)/);
    assert.deepEqual(await q(`[...${box}.querySelectorAll('.fixes button')].map((b) => b.textContent)`), ['Set API Key', 'Retry', 'Show Log']);
    assert.equal(await q(`document.querySelector('#task').value`), 'Read the heading', 'the task is back in the box');
    await shot('7-model-error-buttons');
    await q(`[...${box}.querySelectorAll('.fixes button')][0].click()`);
    assert.deepEqual((await sent()).at(-1), { type: 'modelFix', label: 'Set API Key' });
    await q(`[...${box}.querySelectorAll('.fixes button')][1].click()`);
    assert.deepEqual((await sent()).at(-1), { type: 'modelFix', label: 'Retry', task: 'Read the heading' });
    assert.equal(await q(`document.querySelector('#task').value`), '', 'sent again, so out of the box');
  });

  it('an opened past task offers Replay and Export, and Save as Skill only when it worked', async () => {
    const rec = (id: string, status: string) => ({ id, task: 'Greet Ada', startedAt: Date.now(), provider: 'x', status, entries: [{ kind: 'user', text: 'Greet Ada' }, { kind: 'result', status, summary: 'ok' }] });
    await post({ type: 'task', record: rec('p1', 'failure') as any, running: false, recorded: true, actions: { id: 'p1', replay: true, skill: false } });
    assert.deepEqual(await q(`[...document.querySelectorAll('.task-actions button')].map((b) => b.textContent.trim())`), ['Replay', 'Export']);
    await post({ type: 'task', record: rec('p2', 'success') as any, running: false, notice: 'A conversation from 3 Mar, 14:02.', actions: { id: 'p2', replay: true, skill: true } });
    assert.deepEqual(await q(`[...document.querySelectorAll('.task-actions button')].map((b) => b.textContent.trim())`), ['Replay', 'Export', 'Save as Skill']);
    for (const action of ['replay', 'export', 'saveSkill']) {
      await q(`document.querySelector('.task-actions button[data-action="${action}"]').click()`);
      assert.deepEqual((await sent()).at(-1), { type: 'taskAction', action, id: 'p2' });
    }
    await shot('8-past-task-actions');
    assert.deepEqual(await iconsWithoutGlyph(), [], 'every icon on screen has its glyph');
    // A task that is running, or the current conversation, has none.
    await post({ type: 'task', record: rec('p3', 'running') as any, running: true });
    assert.equal(await q(`document.querySelectorAll('.task-actions').length`), 0);
  });
});
