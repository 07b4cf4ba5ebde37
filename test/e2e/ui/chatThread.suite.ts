// The chat panel as a conversation, in the real host: a scripted OpenAI-compatible model (test/helpers/llmServers.ts,
// reached through the extension's real OpenAI SDK) records what it receives. A follow-up carries the earlier turns;
// New Task starts clean; a thread opened from the history goes on from what was saved; a run whose actions failed
// never shows Done.
import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startOpenAIServer, type LlmServer, type Script, type ScriptedRequest } from '../../helpers/llmServers';
import { startServer, type TestServer } from '../../helpers/servers';
import { notifications, teardown, until, Workbench } from './workbench';

const PROFILE = `<!doctype html><title>Profile</title><h1>Profile</h1>
<input placeholder="Name" id=name>
<button onclick="document.getElementById('out').textContent = 'Saved: ' + document.getElementById('name').value">Save</button>
<button onclick="document.getElementById('out').textContent = 'Everything deleted'">Delete account</button>
<p id=out role=status></p>`;

const MODEL = 'scripted-thread';

function refOf(text: string, role: string, name: string, which: 'first' | 'last' = 'last'): string {
  const all = [...text.matchAll(new RegExp(`\\[(\\w+)\\] ${role} "${name}[^"]*"`, 'g'))];
  const m = which === 'first' ? all[0] : all.at(-1);
  if (!m) throw new Error(`no ${role} "${name}" in:\n${text.slice(-1500)}`);
  return m[1];
}

async function chatFrame(wb: Workbench): Promise<Frame> {
  return until('the chat webview', async () => {
    for (const f of wb.page.frames()) if (f !== wb.page.mainFrame() && (await f.locator('#task').count().catch(() => 0))) return f;
    return undefined;
  });
}

describe('UI: the chat panel is a conversation (threads, verified outcomes)', function () {
  this.timeout(240_000);
  let wb: Workbench;
  let chat: Frame;
  let site: TestServer;
  let llm: LlmServer;
  let url: string;
  /** The script for the current test; `from`: its first request's index. */
  let script: Script = () => ({ text: 'No script.' });
  let from = 0;
  const settingsFile = () => join(process.env.BA_E2E_USER_DATA ?? '', 'User', 'settings.json');
  let savedSettings = '';

  before(async () => {
    site = await startServer({ '/profile': PROFILE, '/login': '<!doctype html><title>Sign in</title><h1>Sign in</h1>' });
    url = `${site.origin}/profile`;
    llm = await startOpenAIServer((r) => script({ ...r, index: r.index - from }));
    // The panel's model: an OpenAI-compatible endpoint with a base URL (no key needed), as a local model is set up.
    savedSettings = readFileSync(settingsFile(), 'utf8');
    writeFileSync(settingsFile(), JSON.stringify({
      ...JSON.parse(savedSettings),
      'browserAgent.agent.provider': 'openai', 'browserAgent.agent.openai.baseURL': llm.baseURL, 'browserAgent.agent.openai.model': MODEL, 'browserAgent.agent.mode': 'dom',
    }, null, 2));
    wb = await Workbench.open('chat-thread');
    await wb.runCommand('Browser Agent: Open Chat');
    chat = await chatFrame(wb);
    await until('the scripted model in the picker', async () => (await chat.locator('#model').evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? '')) === MODEL);
    // Each suite's panel starts clean: a thread left by an earlier suite is not this one's.
    await chat.locator('#new-task').click();
  });
  teardown(() => wb, {
    onFailure: async () => console.log(`    chat log at failure:\n${String(await chat?.locator('#log').innerText().catch(() => '(none)')).replace(/^/gm, '      ')}`),
    cleanup: async () => {
      if (savedSettings) writeFileSync(settingsFile(), savedSettings);
      await llm?.close();
      await site?.close();
    },
  });

  function useScript(s: Script): void {
    from = llm.requests.length;
    script = s;
  }
  const requests = (): ScriptedRequest[] => llm.requests.slice(from);

  async function send(text: string): Promise<void> {
    const box = chat.locator('#task');
    await until('the task box to be enabled', () => box.isEnabled());
    await box.fill(text);
    await box.press('Enter');
    await chat.locator('.msg.user', { hasText: text }).waitFor({ timeout: 15_000 });
  }

  /** The newest turn's result box, once the run is over. */
  async function result(): Promise<string> {
    await chat.locator('#run').waitFor({ state: 'visible', timeout: 90_000 });
    const box = chat.locator('section.task').last().locator('.result-box');
    await box.waitFor({ state: 'visible', timeout: 15_000 });
    return box.innerText();
  }

  const isLight = async () => (await wb.page.locator('.monaco-workbench').getAttribute('class'))?.split(/\s+/).includes('vs') ?? false;
  /** A screenshot in this theme and one in the other, then back. */
  const colours = async () => ({
    panel: await chat.locator('body').evaluate((b) => getComputedStyle(b).backgroundColor),
    sidebar: await wb.page.locator('.part.sidebar').evaluate((e) => getComputedStyle(e).backgroundColor),
  });
  async function bothThemes(name: string): Promise<void> {
    const first = await isLight();
    const before = await colours();
    await wb.screenshot(`${name}-${first ? 'light' : 'dark'}`);
    await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
    await until('the other theme', async () => (await isLight()) !== first);
    // The webview gets the new theme's colours a moment after the workbench.
    await until('the panel in the other theme', async () => (await colours()).panel !== before.panel);
    await wb.page.waitForTimeout(500);
    console.log(`      ${name}: ${JSON.stringify(before)} → ${JSON.stringify(await colours())}`);
    await wb.screenshot(`${name}-${first ? 'dark' : 'light'}`);
    await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
    await until('the first theme again', async () => (await isLight()) === first);
    await until('the panel in the first theme again', async () => (await colours()).panel === before.panel);
  }

  /**
   * Type a name and save it. A turn starts with the person's message (a task, or a follow-up naming the name); the
   * first turn opens the page and reads it, a follow-up starts from the snapshot the agent took of the page as it is.
   */
  let turn = { key: '', step: 0 };
  const nameScript: Script = (r) => {
    const followUps = r.allText.match(/Follow-up from the user[^\n]*/g) ?? [];
    const key = `${/Task: [^\n]*/.exec(r.allText)?.[0]}|${followUps.length}`;
    if (key !== turn.key) turn = { key, step: 0 };
    const name = /with (\w+)\.?$/.exec(followUps.at(-1) ?? '')?.[1] ?? 'Ada';
    const plan: Array<() => ReturnType<Script>> = [
      ...(followUps.length ? [] : [() => ({ text: 'Opening the profile.', toolCalls: [{ name: 'browser_navigate', input: { url } }] }), () => ({ toolCalls: [{ name: 'browser_snapshot', input: {} }] })]),
      () => ({ text: `I will fill in ${name}.`, toolCalls: [{ name: 'browser_type', input: { ref: refOf(r.lastText, 'textbox', 'Name'), text: name } }] }),
      () => ({ toolCalls: [{ name: 'browser_click', input: { ref: refOf(r.allText, 'button', 'Save') } }] }),
      () => ({ text: 'Saved.', toolCalls: [{ name: 'finish', input: { success: true, summary: `Saved the name ${name}.` } }] }),
    ];
    return plan[Math.min(turn.step++, plan.length - 1)]();
  };

  it('a follow-up carries the earlier turns; New Task starts clean; a thread from the history goes on', async () => {
    useScript(nameScript);
    await send(`Open ${url}, set the name to Ada and save it.`);
    assert.match(await result(), /Done[\s\S]*Saved the name Ada\./);
    const firstTurn = requests().length;

    await send('Do it again with Grace.');
    assert.match(await result(), /Done[\s\S]*Saved the name Grace\./);
    // What the model received for the follow-up: the earlier turns (the task, its words, its calls with their inputs
    // and results, its finish), the follow-up, and the page as it is now.
    const followUp = requests()[firstTurn];
    assert.match(followUp.allText, /Task: Open http:\/\/127\.0\.0\.1:\d+\/profile, set the name to Ada and save it\./);
    assert.match(followUp.allText, /Opening the profile\.[\s\S]*I will fill in Ada\./);
    assert.match(JSON.stringify(followUp.body.messages), /browser_type[\s\S]*\\"text\\":\\"Ada\\"[\s\S]*Saved the name Ada\./);
    assert.match(followUp.allText, /Follow-up from the user[^\n]*Do it again with Grace\./);
    assert.match(followUp.lastText, /Saved: Ada/, 'the page as it is now');
    // One thread in the panel: both turns, each with its result.
    assert.equal(await chat.locator('#log section.task').count(), 2);
    assert.match(await chat.locator('#task').getAttribute('placeholder') ?? '', /follow-up/);
    await chat.locator('#log section.task').first().scrollIntoViewIfNeeded();
    await bothThemes('thread-follow-up');

    // New Task: a clean panel, and the next task's request knows nothing of the thread.
    await chat.locator('#new-task').click();
    await chat.locator('.welcome').waitFor({ state: 'visible', timeout: 15_000 });
    useScript(() => ({ toolCalls: [{ name: 'finish', input: { success: true, summary: 'The heading is Profile.' } }] }));
    await send('What is the heading of this page?');
    assert.match(await result(), /Done[\s\S]*The heading is Profile\./);
    assert.doesNotMatch(requests()[0].allText, /set the name to Ada|Follow-up from the user/);
    assert.match(requests()[0].allText, /Task: What is the heading of this page\?/);
    assert.equal(await chat.locator('#log section.task').count(), 1);

    // The history: one row per thread, newest first, each with its time; the two-turn thread opens whole.
    await chat.locator('#history-toggle').click();
    const row = chat.locator('.history-item', { hasText: 'set the name to Ada' }).first();
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await row.getAttribute('title') ?? '', /2 messages/);
    assert.match(await row.locator('.h-when').innerText(), /^\d{1,2} \w{3}, \d\d:\d\d$/);
    await bothThemes('thread-history');
    await row.click();
    await chat.locator('.notice.resumed').waitFor({ timeout: 15_000 });
    assert.equal(await chat.locator('#log section.task').count(), 2);
    await wb.screenshot('thread-reopened');
    // It goes on from what was saved on disk (conversation.json), not from memory of the panel.
    useScript(nameScript);
    await send('And once more with Linus.');
    assert.match(await result(), /Done[\s\S]*Saved the name Linus\./);
    const resumed = requests()[0];
    assert.match(resumed.allText, /set the name to Ada and save it[\s\S]*Do it again with Grace[\s\S]*Follow-up from the user[^\n]*once more with Linus/);
    assert.doesNotMatch(resumed.allText, /What is the heading/, 'not the other thread');
    assert.equal(await chat.locator('#log section.task').count(), 3);
  });

  it('an opened past thread replays whole: every turn\'s steps in order, the question and "Replayed N of N" agree', async () => {
    // The three-turn thread above (Ada, Grace, Linus), opened from the history.
    await chat.locator('#new-task').click();
    await chat.locator('.welcome').waitFor({ state: 'visible', timeout: 15_000 });
    if ((await chat.locator('#history-toggle').getAttribute('aria-expanded')) !== 'true') await chat.locator('#history-toggle').click();
    await chat.locator('.history-item', { hasText: 'set the name to Ada' }).first().click();
    const actions = chat.locator('.task-actions');
    await actions.waitFor({ state: 'visible', timeout: 15_000 });
    await actions.locator('button[data-action="replay"]').click();
    const ask = await wb.modal();
    const question = await ask.innerText();
    assert.match(question, /Replay "Open .*set the name to Ada and save it\." and its 2 follow-ups\?/);
    // Turn 1: navigate, type, click (its snapshot only read); turns 2 and 3: type, click. Not the newest turn's 2.
    const planned = Number(/(\d+) steps? (?:is|are) re-run/.exec(question)?.[1]);
    assert.equal(planned, 7, `the question counts every turn's steps: ${question}`);
    await ask.locator('.monaco-button').filter({ hasText: /^\s*Replay\s*$/ }).first().click();
    await ask.waitFor({ state: 'hidden', timeout: 10_000 });
    // The replay's own turn first (the thread's last turn has a result box too).
    await chat.locator('.notice.recorded', { hasText: 'A replay of a recorded task, without a model: 7 steps to re-run' }).waitFor({ timeout: 15_000 });
    const replay = chat.locator('section.task').last();
    const box = replay.locator('.result-box');
    await box.waitFor({ state: 'visible', timeout: 90_000 });
    assert.match(await box.innerText(), /Replayed 7 of 7 steps\./);
    // The typed value is in each card's detail (its input), folded.
    const typed = await replay.locator('.card.ok[data-tool="browser_type"]').allTextContents();
    assert.equal(await replay.locator('.card.ok').count(), 7, 'one card per step re-run');
    assert.deepEqual(typed.map((t) => /Ada|Grace|Linus/.exec(t)?.[0]), ['Ada', 'Grace', 'Linus'], `the turns in order: ${typed.join(' | ')}`);
    await bothThemes('thread-replayed-whole');
  });

  it('type and two clicks fail on stale refs, the model claims success: told first, then Not verified with the reason, never Done', async () => {
    await chat.locator('#new-task').click();
    await chat.locator('.welcome').waitFor({ state: 'visible', timeout: 15_000 });
    useScript((r) => {
      const first = (role: string, name: string) => refOf(r.allText, role, name, 'first');
      switch (r.index) {
        // A reload: the refs of the page the run started on name nothing now.
        case 0: return { toolCalls: [{ name: 'browser_navigate', input: { url } }] };
        case 1: return { toolCalls: [{ name: 'browser_type', input: { ref: first('textbox', 'Name'), text: 'Ada' } }] };
        case 2: return { toolCalls: [{ name: 'browser_click', input: { ref: first('button', 'Save') } }] };
        case 3: return { toolCalls: [{ name: 'browser_click', input: { ref: first('button', 'Delete account') } }] };
        default: return { text: 'All done.', toolCalls: [{ name: 'finish', input: { success: true, summary: 'Typed Ada, saved it, and deleted the account.' } }] };
      }
    });
    await send(`On ${url}, set the name to Ada, save it and delete the account.`);
    const text = await result();
    assert.match(text, /^\s*Not verified/);
    assert.doesNotMatch(text, /Done/);
    assert.match(text, /3 actions failed and were not redone:\n• type textbox "Name": it was from an earlier page\n• click button "Save": [^\n]+\n• click button "Delete account"/);
    assert.match(text, /The model said: Typed Ada, saved it, and deleted the account\./);
    assert.equal(await chat.locator('section.task').last().locator('.result-box.ok').count(), 0, 'no green box');
    // The model was told before it could finish.
    assert.match(requests()[5].lastText, /your last 3 actions failed and were not redone/);
    assert.deepEqual(await chat.locator('section.task').last().locator('.card[data-tool="finish"]').evaluateAll((els) => els.map((e) => e.className)), ['card error', 'card error']);
    await chat.locator('section.task').last().locator('.result-box').scrollIntoViewIfNeeded();
    await bothThemes('not-verified');
  });

  it('a notify-level step is told on its card, with why, and makes no toast', async () => {
    await chat.locator('#new-task').click();
    await chat.locator('.welcome').waitFor({ state: 'visible', timeout: 15_000 });
    const before = (await notifications(wb)).length;
    await wb.page.keyboard.press('Escape');
    useScript((r) => (r.index === 0
      ? { toolCalls: [{ name: 'browser_navigate', input: { url: `${site.origin}/login` } }] }
      : { toolCalls: [{ name: 'finish', input: { success: true, summary: 'The sign-in page is open.' } }] }));
    await send(`Open the sign-in page at ${site.origin}/login`);
    assert.match(await result(), /Done/);
    // The default policy rates a URL naming "login" notify: the navigate card says so, with the reason, unexpanded.
    const card = chat.locator('section.task').last().locator('.card[data-tool="browser_navigate"]');
    assert.equal((await card.locator('.badge.decision').innerText()).trim(), 'Notified');
    assert.match(await card.locator('.hint.noticed').innerText(), /The destination URL mentions "login"/);
    await card.scrollIntoViewIfNeeded();
    await bothThemes('notify-on-card');
    const after = await notifications(wb);
    assert.equal(after.length, before, `no toast for the notify step: ${after.join(' | ')}`);
    assert.ok(!after.some((n) => /login|Notice/i.test(n)), after.join(' | '));
    await wb.page.keyboard.press('Escape');
  });
});
