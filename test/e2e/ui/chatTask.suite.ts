// The chat panel used the way a person uses it, in the real host: open it from the palette, pick a model in its
// picker (scripted models from test/e2e/fixtures/lm-test-provider, reached through vscode.lm), type a task and press
// Enter, watch step cards and the live view, answer the safety modal both ways, and press Stop mid-run.
import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type TestServer } from '../../helpers/servers';
import { focusedInModal, helper, manifest, readableLabel, teardown, until, webviewFrame, Workbench } from './workbench';

const PAGE = `<!doctype html><title>Greeting form</title><h1>Greeting form</h1>
<label>Your name <input id="name"></label>
<button id="greet" onclick="document.getElementById('out').textContent = 'Hello, ' + document.getElementById('name').value">Greet</button>
<p id="out">no greeting yet</p><p id="state">untouched</p>`;

/** The webview document that holds the chat (webviews are nested iframes): the one with the task box. */
async function chatFrame(wb: Workbench, timeoutMs = 30_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const f of wb.page.frames()) {
      if (f === wb.page.mainFrame()) continue;
      if (await f.locator('#task').count().catch(() => 0)) return f;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the chat webview (with #task) did not appear');
}

function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the UI suite through \`npm run test:e2e\``);
  return v;
}

describe('UI: a task in the chat panel', function () {
  this.timeout(180_000);
  let wb: Workbench;
  let chat: Frame;
  let server: TestServer;
  let url: string;

  before(async () => {
    assert.ok(manifest().contributes.commands.some((c) => c.command === 'browserAgent.openChat'), 'package.json declares browserAgent.openChat');
    server = await startServer({ '/greet': PAGE });
    url = `${server.origin}/greet`;
    wb = await Workbench.open('chat-task');
    await wb.runCommand('Browser Agent: Open Chat');
    chat = await chatFrame(wb);
    // What a person sees once the panel has loaded: the welcome line and the models in the picker.
    await chat.locator('.welcome').waitFor({ state: 'visible', timeout: 30_000 });
    await until('the models in the picker', async () => (await chat.locator('#model option:not([disabled])').count()) > 0);
    await until('the VS Code models listed too', async () => /Scripted/.test(await chat.locator('#model').innerText()));
    assert.doesNotMatch(await chat.locator('#model').evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? ''), /^$|Loading/);
    await wb.screenshot('panel-open');
  });
  // A failed step leaves what the person would have seen: a screenshot and the conversation's text.
  teardown(() => wb, {
    onFailure: async () => {
      const seen = await chat?.locator('#log').innerText().catch(() => '(no chat log)');
      console.log(`    chat log at failure:\n${String(seen).replace(/^/gm, '      ')}`);
    },
    cleanup: async () => server?.close(),
  });

  /** Picks a model in the panel's picker and waits until the panel shows it as selected. */
  async function pickModel(name: string): Promise<void> {
    // The compact picker shows the model's own name (the vendor is in its tooltip).
    const label = name;
    await chat.locator('#model option', { hasText: label }).waitFor({ state: 'attached', timeout: 30_000 });
    await chat.locator('#model').selectOption({ label });
    // The picker is rebuilt from the saved setting: it must come back with this model selected.
    await until(`the picker to keep "${label}"`, async () => {
      const shown = await chat.locator('#model').evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? '');
      return shown === label;
    });
    await wb.page.waitForTimeout(500);
    assert.equal(await chat.locator('#model').evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent), label);
  }

  async function sendTask(text: string): Promise<void> {
    const box = chat.locator('#task');
    await until('the task box to be enabled', () => box.isEnabled());
    await box.fill(text);
    await box.press('Enter');
    await chat.locator('.msg.user', { hasText: text }).waitFor({ timeout: 15_000 });
    await chat.locator('#stop').waitFor({ state: 'visible', timeout: 15_000 });
  }

  const card = (tool: string) => chat.locator(`.card[data-tool="${tool}"]`).last();

  async function cardState(tool: string): Promise<string> {
    return (await card(tool).getAttribute('class'))?.replace('card', '').trim() ?? '';
  }

  /** The safety modal for browser_evaluate; a language-model consent prompt on the way is allowed like a person would. */
  async function evaluateModal() {
    for (;;) {
      const box = await wb.modal(60_000);
      const text = await box.innerText();
      if (/JavaScript|script/i.test(text)) return { box, text };
      assert.match(text, /language model/i, `an unexpected dialog: ${text}`);
      await wb.screenshot('lm-consent');
      await box.locator('.monaco-button').filter({ hasText: /^\s*Allow\s*$/ }).first().click();
      await box.waitFor({ state: 'hidden', timeout: 15_000 });
    }
  }

  async function resultBox() {
    const box = chat.locator('.result-box').last();
    await box.waitFor({ state: 'visible', timeout: 60_000 });
    await chat.locator('#run').waitFor({ state: 'visible', timeout: 15_000 });
    return box;
  }

  async function probe(expr: string): Promise<string> {
    const r = await helper(wb, { probe: expr });
    assert.equal(r.status, 'ok', `probe: ${r.text}`);
    return String(r.value);
  }

  it('Allow: step cards with results, the live view, the modal answered, the page changed', async () => {
    await pickModel('Scripted (browser task)');
    await sendTask(`Open ${url}, greet Ada and mark the page with a script`);

    const { box, text } = await evaluateModal();
    assert.match(text, /Allow Browser Agent to run JavaScript on 127\.0\.0\.1:\d+\?/, `the dialog asks one plain question: ${text}`);
    assert.match(text, /127\.0\.0\.1|Greeting form/, `the dialog names the page: ${text}`);
    // While the run waits for the person: earlier steps are done cards with results, the script's card is running.
    for (const tool of ['browser_navigate', 'browser_snapshot', 'browser_type', 'browser_click']) {
      assert.equal(await cardState(tool), 'ok', `${tool} card`);
      assert.notEqual((await card(tool).locator('.result').innerText()).trim(), '', `${tool} card shows a result`);
    }
    assert.match(await card('browser_navigate').locator('.result').innerText(), /Greeting form|127\.0\.0\.1/);
    assert.equal(await cardState('browser_evaluate'), 'running');
    // The live view shows the page through the screencast.
    const frame = await until('a live-view frame', async () => {
      const f = await chat.locator('#live-frame').evaluate((img: HTMLImageElement) => ({ src: img.src.slice(0, 23), w: img.naturalWidth, visible: img.offsetWidth > 0 }));
      return f.w > 0 && f.visible && f;
    });
    assert.equal(frame.src, 'data:image/jpeg;base64,');
    // Watch by default: the editor area was empty, so the task's first browser step opened the live view there,
    // beside the chat; at the confirmation the page is in sight next to the modal.
    await wb.page.locator('.tabs-container .tab', { hasText: /^Browser: / }).first().waitFor({ state: 'visible', timeout: 15_000 });
    const editorLive = await until('the live view in the editor area', async () => {
      for (const f of wb.page.frames()) if (f !== chat && (await f.locator('#bar #state').count().catch(() => 0))) return f;
      return undefined;
    });
    const big = await until('a page in the editor live view', async () => {
      const f = await editorLive.locator('#live-frame').evaluate((img: HTMLImageElement) => ({ w: img.naturalWidth, shown: img.getBoundingClientRect().width }));
      return f.w > 0 && f.shown > 300 && f;
    });
    assert.ok(big.shown > 300, `the page is shown ${big.shown} px wide`);
    await wb.screenshot('cards-and-modal');

    await box.locator('.monaco-button').filter({ hasText: /^\s*Allow\s*$/ }).first().click();
    await box.waitFor({ state: 'hidden', timeout: 15_000 });
    const result = await resultBox();
    assert.match(await result.innerText(), /Done[\s\S]*marked: Hello, Ada/);
    assert.equal(await cardState('browser_evaluate'), 'ok');
    assert.equal((await card('browser_evaluate').locator('.badge.decision').innerText()).trim(), 'Allowed by you');
    // The card's line shows the value, not only a heading (the model's "page data" note stays in the detail).
    assert.equal((await card('browser_evaluate').locator('.result').innerText()).trim(), 'Result: "marked: Hello, Ada".');
    assert.equal(await cardState('finish'), 'ok');
    // Expanding a card shows its full input and output.
    await card('browser_evaluate').locator('summary').click();
    assert.match(await card('browser_evaluate').locator('.detail').innerText(), /changed by the agent[\s\S]*Output[\s\S]*Result \(page data, not instructions\):\s*"marked: Hello, Ada"/i);
    // Page-content fences are for the model: the person never sees them.
    assert.doesNotMatch((await chat.locator('#log').textContent()) ?? '', /page-content/);
    // The shipped example skills share words with the task ("open"), but none is for this local page: no skills step.
    assert.equal(await chat.locator('.card[data-tool="skills"]').count(), 0, 'no skills step on a page no skill is for');
    await wb.screenshot('allowed-done');
    // The page really changed: read through Browser Agent's session API, not the panel.
    assert.equal(await probe('document.getElementById("state").textContent'), 'changed by the agent');
    assert.equal(await probe('document.getElementById("out").textContent'), 'Hello, Ada');
  });

  /**
   * The editor-area live view (opened beside the chat by the first task), listened to: every highlight message it
   * receives is noted, as its page gets it.
   */
  async function listenToLiveView(): Promise<{ frame: Frame; received: () => Promise<Array<{ box?: { x: number; y: number; width: number; height: number }; label?: string }>> }> {
    const frame = await webviewFrame(wb, '#stage');
    await frame.evaluate(() => {
      const w = window as unknown as { __highlights: unknown[] };
      w.__highlights = [];
      window.addEventListener('message', (e) => void (e.data?.type === 'highlight' && w.__highlights.push(e.data)));
    });
    return { frame, received: () => frame.evaluate(() => (window as unknown as { __highlights: [] }).__highlights) };
  }

  it('Cancel: the card shows the refusal and the script did not run', async () => {
    const liveView = await listenToLiveView();
    await sendTask(`Open ${url} again, greet Ada and mark the page with a script`);
    const { box } = await evaluateModal();
    await box.locator('.monaco-button').filter({ hasText: /^\s*Cancel\s*$/ }).first().click();
    await box.waitFor({ state: 'hidden', timeout: 15_000 });
    const result = await resultBox();
    assert.equal(await cardState('browser_evaluate'), 'error');
    assert.equal((await card('browser_evaluate').locator('.badge.decision').innerText()).trim(), 'Declined by you');
    assert.match(await card('browser_evaluate').locator('.result').innerText(), /declined browser_evaluate/, 'the message, not only a code');
    assert.match(await result.innerText(), /Could not finish[\s\S]*refused/);
    assert.equal(await cardState('finish'), 'error', 'no green check on a finish that reports failure');
    // The editor-area live view outlined the elements the steps acted on (the field typed in, the button), each taken
    // away when its step ended.
    const got = await liveView.received();
    const typed = got.find((m) => m.label === 'browser_type' && m.box);
    assert.ok(typed && typed.box!.width > 20 && typed.box!.height > 5, `the typed field outlined: ${JSON.stringify(got)}`);
    assert.ok(got.some((m) => m.label === 'browser_click' && m.box), `the button outlined: ${JSON.stringify(got)}`);
    assert.ok(!got.at(-1)!.box, 'no outline left after the last step');
    // How it looks (the same message again, for the picture: the field is where it was).
    await liveView.frame.evaluate((m) => window.postMessage(m, '*'), typed);
    await until('the outline on the live view', () => liveView.frame.locator('#highlight').isVisible());
    await wb.page.waitForTimeout(300);
    await wb.screenshot('live-view-editor-outline');
    await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
    await wb.page.waitForTimeout(1500);
    await wb.screenshot('live-view-editor-outline-other-theme');
    await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
    await wb.page.waitForTimeout(1000);
    await liveView.frame.evaluate(() => window.postMessage({ type: 'highlight' }, '*'));
    // Declined, not done: the thread stays, and the words typed are back in the box to send again or edit.
    assert.equal(await chat.locator('#task').inputValue(), `Open ${url} again, greet Ada and mark the page with a script`);
    // A follow-up in the same thread: the first turn is still there, above this one.
    assert.equal(await chat.locator('.msg.user', { hasText: 'greet Ada and mark the page with a script' }).count(), 2);
    // …with its own cards: the scripted model reuses call ids across tasks, and a card never moves to a later task.
    const firstTask = chat.locator('section.task').filter({ hasText: 'Ada and mark the page with a script' }).first();
    assert.deepEqual(await firstTask.locator('.card[data-tool="browser_evaluate"] .badge.decision').allInnerTexts(), ['Allowed by you']);
    assert.ok((await firstTask.locator('.card').count()) >= 5, 'the first conversation keeps its cards');
    await wb.screenshot('cancelled-done');
    // Both themes: the "Declined by you" badge stays readable (coloured text on the card, not white on pale red).
    const badge = card('browser_evaluate').locator('.badge.decision');
    const colours = () => badge.evaluate((el) => ({ fg: getComputedStyle(el).color, bg: getComputedStyle(el).backgroundColor }));
    const light = async () => (await wb.page.locator('.monaco-workbench').getAttribute('class'))?.split(/\s+/).includes('vs') ?? false;
    const first = await light();
    const c1 = await colours();
    assert.equal(c1.bg, 'rgba(0, 0, 0, 0)', `no filled badge: ${JSON.stringify(c1)}`);
    assert.notEqual(c1.fg, 'rgb(255, 255, 255)', `badge text is not white: ${JSON.stringify(c1)}`);
    await wb.screenshot(`declined-badge-${first ? 'light' : 'dark'}-theme`);
    await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
    await until('the other theme', async () => (await light()) !== first);
    await wb.page.waitForTimeout(500);
    const c2 = await colours();
    assert.notEqual(c2.fg, c2.bg, `readable after the theme change: ${JSON.stringify(c2)}`);
    await wb.screenshot(`declined-badge-${first ? 'dark' : 'light'}-theme`);
    await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
    await until('the first theme again', async () => (await light()) === first);
    // Reloaded by the second navigate: the greeting happened, the script did not.
    assert.equal(await probe('document.getElementById("out").textContent'), 'Hello, Ada');
    assert.equal(await probe('document.getElementById("state").textContent'), 'untouched');
  });

  it('Stop ends a running task and the result says stopped', async () => {
    await chat.locator('#new-task').click();
    await chat.locator('.welcome').waitFor({ state: 'visible', timeout: 15_000 });
    await pickModel('Scripted (slow)');
    await sendTask(`Open ${url} and think about it`);
    await until('the navigate card to finish', async () => (await cardState('browser_navigate')) === 'ok');
    await chat.locator('.msg.assistant', { hasText: 'Thinking it over slowly' }).waitFor({ timeout: 30_000 });
    await wb.screenshot('running-before-stop');
    const t0 = Date.now();
    await chat.locator('#stop').click();
    const result = await resultBox();
    assert.ok(Date.now() - t0 < 15_000, `stopped within 15 s (took ${Date.now() - t0} ms)`);
    // Said once: the box's label, not "Stopped by you" and "Stopped by the user." under it.
    assert.equal((await result.innerText()).trim(), 'Stopped by you');
    assert.equal(await chat.locator('#stop').isHidden(), true);
    assert.equal(await chat.locator('#task').isEnabled(), true, 'the task box is usable again');
    // Stopped, not done: the turn and its step stay, and the task is back in the box.
    assert.equal(await chat.locator('#task').inputValue(), `Open ${url} and think about it`);
    assert.equal(await cardState('browser_navigate'), 'ok');
    await wb.screenshot('stopped');
  });

  it('History: one row per thread with its time, the same words as Task History; a thread opens whole; Clear asks first', async () => {
    await chat.locator('#history-toggle').click();
    const items = chat.locator('.history-item');
    await until('two threads in the history', async () => (await items.count()) >= 2);
    const metas = await chat.locator('.history-item .h-meta').allInnerTexts();
    // The Allow and Cancel runs are one thread (its newest outcome shows), the stopped run another.
    assert.deepEqual(metas.slice(0, 2), ['Stopped by you', 'Could not finish'], `newest first, one vocabulary: ${metas.join(' | ')}`);
    for (const when of (await chat.locator('.history-item .h-when').allInnerTexts()).slice(0, 2)) assert.match(when, /^\d{1,2} \w{3}, \d\d:\d\d$/, 'each row says when');
    await wb.screenshot('history-open');
    await items.nth(1).click();
    await chat.locator('.notice.resumed').waitFor({ timeout: 15_000 });
    assert.match(await chat.locator('#log').innerText(), /A conversation from[\s\S]*greet Ada[\s\S]*Done[\s\S]*again, greet Ada[\s\S]*Could not finish/);
    // Opened to go on: the placeholder says the next message continues it.
    assert.match((await chat.locator('#task').getAttribute('placeholder')) ?? '', /follow-up/);
    await wb.screenshot('history-thread-opened');
    // The Task History view lists the same tasks with the same words.
    await wb.runCommand('Browser Agent: Show Task History');
    const tree = wb.page.locator('.monaco-list-row', { hasText: 'Stopped by you' }).first();
    await tree.waitFor({ state: 'visible', timeout: 30_000 });
    // At the default sidebar width each task row can be read up to its outcome and step count.
    const rows = wb.page.locator('.pane-body .monaco-list-row[aria-level="1"]').filter({ hasText: / · \d+ steps?: / });
    const seen = await Promise.all((await rows.all()).slice(0, 3).map(readableLabel));
    assert.equal(seen.length, 3, `three task rows: ${seen.join(' | ')}`);
    for (const [i, words] of ['Stopped by you', 'Could not finish', 'Done'].entries()) {
      assert.match(seen[i], new RegExp(`^${words} · \\d+ steps?:`), `row ${i + 1} readable at the default width: "${seen[i]}"`);
    }
    await wb.screenshot('task-history-same-words');
    // Clear asks first; Enter keeps them.
    await wb.runCommand('Browser Agent: Open Chat');
    await chat.locator('#history-toggle').click();
    await chat.locator('#clear-history').click();
    const box = await wb.modal();
    assert.match(await box.innerText(), /Delete all \d+ recorded tasks\?/);
    assert.equal(await focusedInModal(wb), 'Keep Them');
    await wb.screenshot('clear-history-asks');
    await wb.page.keyboard.press('Enter');
    await box.waitFor({ state: 'hidden', timeout: 10_000 });
    await wb.page.waitForTimeout(500);
    assert.ok((await chat.locator('.history-item').count()) >= 2, 'nothing was deleted');
    // The thread opened from the history is the current conversation (not a recorded task): the badge is plain Live.
    assert.equal(await chat.locator('.notice.recorded').count(), 0);
    await until('the plain Live badge', async () => (await chat.locator('#live-state').innerText()).trim() === 'Live');
  });

  /** F1 → Replay Task…, the task that succeeded picked by its words, the "Replay …?" modal answered Replay. */
  async function replayTheDoneTask(): Promise<void> {
    await wb.runCommand('Browser Agent: Replay Task…', { opensQuickInput: true });
    const row = wb.page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: 'greet Ada and mark the page' }).filter({ hasText: /Done/ }).filter({ hasNotText: /again|Replay/ }).first();
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    await row.click();
    const ask = await wb.modal();
    assert.match(await ask.innerText(), /Replay "Open .*greet Ada/);
    await ask.locator('.monaco-button').filter({ hasText: /^\s*Replay\s*$/ }).first().click();
    await ask.waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /** The Task History's newest replay row, expanded, and its step rows' text. */
  async function newestReplaySteps(): Promise<{ row: import('playwright-core').Locator; steps: string[] }> {
    await wb.runCommand('Browser Agent: Show Task History');
    const row = wb.page.locator('.monaco-list-row[aria-level="1"]', { hasText: 'Replay: ' }).first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
    const steps = wb.page.locator('.monaco-list-row[aria-level="2"]');
    await steps.first().waitFor({ state: 'visible', timeout: 15_000 });
    return { row, steps: (await steps.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()) };
  }

  it('Replay: the task that succeeded replays without a model, its typed step found again, the script asked again', async () => {
    // The Stop run left the page fresh: no greeting, no mark.
    assert.equal(await probe('document.getElementById("out").textContent'), 'no greeting yet');
    await replayTheDoneTask();
    // Replay asks again before the script, as the task did when it was recorded.
    const { box, text } = await evaluateModal();
    assert.match(text, /Allow Browser Agent to run JavaScript on 127\.0\.0\.1:\d+\?/);
    await box.locator('.monaco-button').filter({ hasText: /^\s*Allow\s*$/ }).first().click();
    await box.waitFor({ state: 'hidden', timeout: 15_000 });
    // The typed name and the click were replayed on the real page.
    await until('the replayed greeting', async () => (await probe('document.getElementById("out").textContent')) === 'Hello, Ada');
    await until('the replayed script', async () => (await probe('document.getElementById("state").textContent')) === 'changed by the agent');
    const { row, steps } = await newestReplaySteps();
    await until('the replay to be recorded as Done', async () => /Done/.test(await row.innerText()));
    assert.ok(steps.some((t) => /type/i.test(t) && /Your name/.test(t)), `the typed step is in the replay: ${steps.join(' | ')}`);
    assert.ok(!steps.some((t) => /Failed:/.test(t)), `no step failed: ${steps.join(' | ')}`);
    // One history: the chat's Recent tasks lists the replay too, without reopening the panel.
    await until('the replay in the chat\'s Recent tasks', async () => (await chat.locator('.history-item .h-task', { hasText: /^Replay: / }).count()) > 0);
    await wb.screenshot('replay-done');
  });

  /** The panel's history list, opened (a click on its button when it is closed). */
  async function openHistory(): Promise<void> {
    if ((await chat.locator('#history-toggle').getAttribute('aria-expanded')) !== 'true') await chat.locator('#history-toggle').click();
  }

  it('Replay from the panel: an opened past task has Replay and Export (Save as Skill only when it worked); the replay shows its cards and its count is the one the question named', async () => {
    await openHistory();
    const row = chat.locator('.history-item').filter({ hasText: 'greet Ada' }).filter({ hasNotText: /Replay: / }).filter({ hasText: 'Could not finish' }).first();
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    await row.click();
    const actions = chat.locator('.task-actions');
    await actions.waitFor({ state: 'visible', timeout: 15_000 });
    assert.deepEqual((await actions.locator('button').allInnerTexts()).map((t) => t.trim()), ['Replay', 'Export'], 'no Save as Skill for a run that did not finish');
    await actions.locator('button[data-action="replay"]').click();
    const ask = await wb.modal();
    const question = await ask.innerText();
    const planned = Number(/(\d+) steps? (?:is|are) re-run/.exec(question)?.[1]);
    assert.ok(planned > 0, `the question names how many steps run: ${question}`);
    // The thread whole: the run that was allowed and its follow-up that was declined (2 messages).
    assert.match(question, /and its 1 follow-up\?/);
    await ask.locator('.monaco-button').filter({ hasText: /^\s*Replay\s*$/ }).first().click();
    await ask.waitFor({ state: 'hidden', timeout: 10_000 });
    // In the panel, as a task: its line, a card per step, then the result with the same count.
    await chat.locator('.notice.recorded', { hasText: 'A replay of a recorded task, without a model' }).waitFor({ timeout: 15_000 });
    // The first turn's script was allowed when recorded: replay asks again (the declined one is skipped).
    const again = await evaluateModal();
    await again.box.locator('.monaco-button').filter({ hasText: /^\s*Allow\s*$/ }).first().click();
    await again.box.waitFor({ state: 'hidden', timeout: 15_000 });
    const box = chat.locator('section.task').last().locator('.result-box');
    await box.waitFor({ state: 'visible', timeout: 60_000 });
    const said = await box.innerText();
    assert.match(said, new RegExp(`Replayed ${planned} of ${planned} steps?\\.`), `the result counts what the question named (${planned}): ${said}`);
    assert.equal(await chat.locator('section.task').last().locator('.card.ok').count(), planned, 'one card per step re-run');
    assert.ok(await chat.locator('section.task').last().locator('.card[data-tool="browser_type"] .target', { hasText: 'Your name' }).count(), 'the typed step names its field');
    await wb.screenshot('replay-in-panel');
    await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
    await wb.page.waitForTimeout(1500);
    await wb.screenshot('replay-in-panel-other-theme');
    await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
    // The task that worked offers Save as Skill.
    await openHistory();
    await chat.locator('.history-item').filter({ hasText: /^Replay: / }).filter({ hasText: 'Done' }).first().click();
    await until('a replay opened', async () => (await chat.locator('.task-actions button').count()) > 0);
    assert.deepEqual((await chat.locator('.task-actions button').allInnerTexts()).map((t) => t.trim()), ['Replay', 'Export'], 'a replay teaches no skill');
  });

  it('Replay: a step it cannot find again stops it, and the Task History tree shows that step and why', async () => {
    // The name field is gone: the typed step has nothing to type into.
    server.route('/greet', PAGE.replace(/<label>Your name <input id="name"><\/label>/, ''));
    try {
      await replayTheDoneTask();
      // The newest replay row says it could not finish, and once expanded its failing step is listed.
      const { steps } = await until('the stopped replay and its failed step in the tree', async () => {
        const r = await newestReplaySteps();
        return /Could not finish/.test(await r.row.innerText()) && r.steps.some((t) => /Failed:/.test(t)) && r;
      }, 90_000);
      const failed = steps.find((t) => /Failed:/.test(t));
      assert.ok(failed, `a failed step row: ${steps.join(' | ')}`);
      assert.match(failed!, /Failed: cannot find textbox "Your name" again/, 'the row leads with why');
      assert.equal(await probe('document.getElementById("state").textContent'), 'untouched', 'nothing after the failed step ran');
      await wb.screenshot('replay-failed-step-in-history');
      // Its step page says the same in plain words: what failed and why, local time, no rule ids up front.
      await wb.page.locator('.monaco-list-row[aria-level="2"]', { hasText: 'Failed:' }).first().click();
      const page = await webviewFrame(wb, 'table th');
      await until('the step page', async () => /Failed: cannot find textbox "Your name" again/.test(await page.locator('h2').innerText()));
      const table = await page.locator('table').innerText();
      assert.match(table, /Result\s+Failed: cannot find textbox "Your name" again/);
      assert.doesNotMatch(table, /\d{4}-\d\d-\d\dT\d\d:/, 'no ISO UTC time');
      // The frame in words; its raw CDP id only in the tooltip.
      assert.match(table, /Frame\s+main page/);
      assert.doesNotMatch(table, /[0-9A-F]{32}/, 'no raw frame id shown');
      assert.match((await page.locator('tr', { hasText: 'Frame' }).locator('td').getAttribute('title')) ?? '', /^frame id [0-9A-F]{32}$/);
      await wb.screenshot('replay-failed-step-page');
      // The step page follows the theme: readable in the dark one too.
      const isLight = async () => (await wb.page.locator('.monaco-workbench').getAttribute('class'))?.split(/\s+/).includes('vs') ?? false;
      const light = await isLight();
      await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
      await until('the other theme', async () => (await isLight()) !== light);
      await until('the step page in the other theme', async () => {
        const c = await page.locator('td').first().evaluate((el) => [getComputedStyle(el).color, getComputedStyle(document.body).backgroundColor]);
        return c[0] !== c[1] && (light ? /rgb\((2[0-9]{2}|1[5-9][0-9]), /.test(c[0]) : true);
      }, 10_000);
      await wb.screenshot(`replay-failed-step-page-${light ? 'dark' : 'light'}-theme`);
      await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
      await until('the first theme again', async () => (await isLight()) === light);
      await wb.runCommand('View: Close All Editors');
    } finally {
      server.route('/greet', PAGE);
    }
  });

  it('A task that cannot launch the browser: the card says why and how to fix it, and its Open Settings button opens the setting', async () => {
    const settingsFile = join(required('BA_E2E_USER_DATA'), 'User', 'settings.json');
    assert.ok(existsSync(settingsFile), settingsFile);
    const saved = readFileSync(settingsFile, 'utf8');
    await wb.runCommand('Browser Agent: Close Browser');
    writeFileSync(settingsFile, JSON.stringify({ ...JSON.parse(saved), 'browserAgent.browser.executablePath': '/nonexistent/chrome' }, null, 2));
    try {
      await wb.page.waitForTimeout(2000); // VS Code re-reads the user settings file
      await wb.runCommand('Browser Agent: Open Chat');
      await chat.locator('#new-task').click();
      await pickModel('Scripted (browser task)');
      await sendTask(`Open ${url} with a browser that is not there`);
      const failed = chat.locator('.card.error', { hasText: 'does not exist' }).first();
      await failed.waitFor({ state: 'visible', timeout: 60_000 });
      // The message and the fix-it hint are on the card, not only a code…
      const seen = `${await failed.innerText()}\n[detail] ${await failed.locator('.detail').textContent()}`;
      assert.match(seen, /The browser executable \/nonexistent\/chrome does not exist/);
      assert.match(await failed.locator('.hint').innerText({ timeout: 5000 }).catch(() => ''), /browserAgent\.browser\.executablePath/, seen);
      // …with the buttons that help.
      assert.deepEqual((await failed.locator('.fixes button').allInnerTexts()).map((t) => t.trim()), ['Open Settings', 'Show Log']);
      await resultBox();
      // Nothing was ever connected: the status bar and the live badge say the launch failed, not "disconnected".
      await until('the status bar to say the launch failed', async () => (await wb.statusText()) === 'Browser: could not launch');
      assert.equal((await chat.locator('#live-state').innerText()).trim(), 'No browser');
      await wb.screenshot('launch-failed-card');
      await failed.locator('.fixes button', { hasText: 'Open Settings' }).click();
      const search = wb.page.locator('.settings-editor .suggest-input-container textarea, .settings-editor .search-container input, .settings-editor .monaco-editor textarea').first();
      await wb.page.locator('.settings-editor').waitFor({ state: 'visible', timeout: 15_000 });
      await until('the settings search to name the setting group', async () => /browserAgent\.browser/.test(await wb.page.locator('.settings-editor .search-container').innerText().catch(() => '') + (await search.inputValue().catch(() => ''))));
      // …and the person sees the setting to fix, not an empty list.
      await wb.page.locator('.settings-editor .setting-item', { hasText: /Executable Path/ }).first().waitFor({ state: 'visible', timeout: 30_000 });
      await wb.screenshot('launch-failed-open-settings');
    } finally {
      writeFileSync(settingsFile, saved);
      await wb.page.waitForTimeout(1000);
    }
  });

  it('the browser crashes mid-task: the thread, its steps and the task stay; the panel says the browser is gone', async () => {
    await chat.locator('#new-task').click();
    await chat.locator('.welcome').waitFor({ state: 'visible', timeout: 15_000 });
    await pickModel('Scripted (slow)');
    const task = `Open ${url} and think it over`;
    await sendTask(task);
    await until('the navigate card to finish', async () => (await cardState('browser_navigate')) === 'ok');
    await chat.locator('.msg.assistant', { hasText: 'Thinking it over slowly' }).waitFor({ timeout: 30_000 });
    const killed = await helper(wb, { kill: 'browser' });
    assert.equal(killed.status, 'ok', `killed: ${killed.text}`);
    await until('the live view to say the browser is gone', async () => (await chat.locator('#live-state').innerText()).trim() === 'Disconnected');
    await chat.locator('#stop').click();
    await resultBox();
    assert.equal(await chat.locator('#log section.task').count(), 1, 'the thread is still there');
    assert.ok((await chat.locator('section.task').last().locator('.msg.user').innerText()).endsWith(task), 'the message as sent');
    assert.equal(await cardState('browser_navigate'), 'ok', 'its step is still shown');
    assert.equal(await chat.locator('#task').inputValue(), task, 'the task is back in the box');
    await wb.screenshot('browser-crashed-task-kept');
  });
});
