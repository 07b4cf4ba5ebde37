// The palette commands a person runs by hand, driven as a person does in the real host: Run Tool… (quick pick,
// argument box with its hints, the result shown), Set Secret… / Delete Secret… (two input boxes, the value hidden,
// then used on a page without ever showing) and Forget "Allow for This Site" Answers (the modal asks again).
import * as assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../helpers/servers';
import { focusedInModal, helper, manifest, teardown, until, Workbench } from './workbench';

const PAGE = `<!doctype html><title>Commands test</title><h1>Commands test</h1>
<label>Password <input id="pw" type="password"></label><p id="state">untouched</p>`;
const SECRET = 'e2e-Secret-value-42';

describe('UI: Run Tool…, Set Secret… and Forget "Allow for This Site" from the palette', function () {
  this.timeout(180_000);
  let wb: Workbench;
  let server: TestServer;
  let url: string;
  let site: string;

  before(async () => {
    const titles = manifest().contributes.commands.map((c) => c.title);
    for (const t of ['Run Tool…', 'Set Secret…', 'Delete Secret…', 'Forget "Allow for This Site" Answers']) assert.ok(titles.includes(t), `package.json declares "${t}"`);
    server = await startServer({ '/commands': PAGE });
    url = `${server.origin}/commands`;
    site = new URL(url).host;
    wb = await Workbench.open('commands');
  });
  // A failed step may leave a modal and an input box open: three Escapes.
  teardown(() => wb, { escapes: 3, cleanup: async () => server?.close() });

  const quickInput = () => wb.page.locator('.quick-input-widget');
  const box = () => wb.page.locator('.quick-input-widget input.input');

  /** The newest Browser Agent notification's text, from the Notification Center (toasts are hidden here). */
  async function newestNotification(match: RegExp): Promise<string> {
    return until(`a notification matching ${match}`, async () => {
      await wb.runCommand('Notifications: Show Notifications');
      const items = wb.page.locator('.notifications-center .notification-list-item');
      const texts = (await items.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
      const hit = texts.find((t) => match.test(t));
      if (!hit) await wb.page.keyboard.press('Escape');
      return hit;
    });
  }
  async function clearNotifications(): Promise<void> {
    await wb.runCommand('Notifications: Clear All Notifications');
  }

  /** F1 → Run Tool…, the tool picked by typing its name, its arguments typed into the argument box. */
  async function runTool(name: string, args: object, shot?: string): Promise<{ prefilled: string; prompt: string }> {
    await wb.runCommand('Browser Agent: Run Tool…', { opensQuickInput: true });
    await box().fill(name);
    const row = wb.page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: name }).first();
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    await wb.page.keyboard.press('Enter');
    await until(`the argument box of ${name}`, async () => (await quickInput().innerText()).includes(`(${name}): arguments`));
    const prefilled = await box().inputValue();
    const prompt = (await quickInput().innerText()).replace(/\s+/g, ' ');
    if (shot) await wb.screenshot(shot);
    await box().fill(JSON.stringify(args));
    await wb.page.keyboard.press('Enter');
    await quickInput().waitFor({ state: 'hidden', timeout: 15_000 });
    return { prefilled, prompt };
  }

  async function pageValue(expr: string): Promise<string> {
    const r = await helper(wb, { probe: expr });
    assert.equal(r.status, 'ok', `probe: ${r.text}`);
    return String(r.value);
  }

  it('Run Tool…: the argument box shows the fields, refuses what is not JSON, and the result is shown to the person', async () => {
    await wb.runCommand('Browser Agent: Run Tool…', { opensQuickInput: true });
    await box().fill('navigate');
    const rows = wb.page.locator('.quick-input-widget .monaco-list-row');
    await until('the navigate tool in the picker', async () => /browser_navigate/.test((await rows.allInnerTexts()).join('\n')));
    await wb.screenshot('run-tool-picker');
    await wb.page.keyboard.press('Enter');
    await until('the argument box', async () => (await quickInput().innerText()).includes('(browser_navigate): arguments'));
    // Not a bare {}: the required field is pre-filled and the prompt says what it is.
    assert.equal(await box().inputValue(), '{"url":""}');
    assert.match((await quickInput().innerText()).replace(/\s+/g, ' '), /url: Full URL/);
    await box().fill('{"url": ');
    await until('the JSON complaint', async () => /Not JSON yet/.test(await quickInput().innerText()));
    await wb.screenshot('run-tool-not-json');
    await box().fill(JSON.stringify({ url }));
    await wb.page.keyboard.press('Enter');
    await quickInput().waitFor({ state: 'hidden', timeout: 15_000 });
    await wb.statusItem(/Commands test/).waitFor({ state: 'visible', timeout: 60_000 });
    // The person sees what came back, without the page-content fences, and can open all of it.
    const seen = await newestNotification(/browser_navigate:/);
    assert.match(seen, /Browser Agent: browser_navigate: .*Commands test|Browser Agent: browser_navigate: .*127\.0\.0\.1/, seen);
    assert.match(seen, /Show Full Result/);
    assert.doesNotMatch(seen, /page-content/);
    await wb.screenshot('run-tool-result');
    await wb.page.locator('.notifications-center .notification-list-item').filter({ hasText: 'browser_navigate:' }).first().locator('.monaco-button', { hasText: 'Show Full Result' }).click();
    const editor = wb.page.locator('.editor-instance .view-lines').first();
    await until('the full result in an editor', async () => /127\.0\.0\.1/.test(await editor.innerText()));
    assert.match(await wb.page.locator('.tabs-container .tab.active').innerText(), /browser_navigate result/);
    await wb.screenshot('run-tool-full-result');
    // A result is read-only: closing its tab never asks to save text the person did not write.
    await wb.runCommand('View: Close All Editors');
    await wb.page.waitForTimeout(1000);
    assert.equal(await wb.page.locator('.monaco-dialog-box').count(), 0, 'closing the result asked to save it');
    assert.equal(await wb.page.locator('.tabs-container .tab').count(), 0);
    await clearNotifications();
  });

  it('Forget "Allow for This Site": after it, a sensitive action asks again, and the command says what it did', async () => {
    await clearNotifications();
    // 1. A script, allowed for this site: the modal names the site on its button.
    await runTool('browser_evaluate', { script: "document.getElementById('state').textContent = 'one'; 'one'" });
    let modal = await wb.modal();
    const siteButton = modal.locator('.monaco-button').filter({ hasText: `Allow on ${site} for This Session` });
    assert.equal(await siteButton.count(), 1, `the site button names ${site}: ${await modal.innerText()}`);
    await siteButton.click();
    await modal.waitFor({ state: 'hidden', timeout: 15_000 });
    await until('the first script ran', async () => (await pageValue('document.getElementById("state").textContent')) === 'one');
    // 2. The next script on the site runs without asking.
    await runTool('browser_evaluate', { script: "document.getElementById('state').textContent = 'two'; 'two'" });
    await until('the second script ran without a question', async () => (await pageValue('document.getElementById("state").textContent')) === 'two');
    assert.equal(await wb.page.locator('.monaco-dialog-box').count(), 0, 'no modal for an allowed site');
    // 3. Forget: the person is told how many answers were forgotten.
    await wb.runCommand('Browser Agent: Forget "Allow for This Site" Answers');
    const forgot = await newestNotification(/forgot 1 "Allow for this site" answer/);
    assert.match(forgot, /sensitive actions ask again/);
    await wb.screenshot('forget-allowances-said');
    await clearNotifications();
    // 4. The next script asks again; the safe choice is focused, and refusing leaves the page alone.
    await runTool('browser_evaluate', { script: "document.getElementById('state').textContent = 'three'; 'three'" });
    modal = await wb.modal();
    assert.match(await modal.innerText(), new RegExp(`Allow Browser Agent to run JavaScript on ${site.replace(/\./g, '\\.')}\\?`));
    assert.equal(await focusedInModal(wb), "Don't Allow");
    await wb.screenshot('asks-again-after-forget');
    await wb.page.keyboard.press('Enter');
    await modal.waitFor({ state: 'hidden', timeout: 15_000 });
    const refused = await newestNotification(/browser_evaluate did not run/);
    assert.match(refused, /declined/i, refused);
    assert.doesNotMatch(refused, /How to fix it|Do not repeat it/, 'no hint meant for the model');
    assert.equal(await pageValue('document.getElementById("state").textContent'), 'two', 'the refused script did not run');
    await wb.screenshot('declined-result');
    await clearNotifications();
    // 5. Nothing left to forget: it says so rather than staying silent.
    await wb.runCommand('Browser Agent: Forget "Allow for This Site" Answers');
    await newestNotification(/there were no "Allow for this site" answers to forget/);
    await clearNotifications();
  });

  it('Get Started: the walkthrough opens with its six steps, a model first', async () => {
    await wb.runCommand('Browser Agent: Get Started');
    const page = wb.page.locator('.gettingStartedContainer');
    await until('the walkthrough', async () => /Get Started with Browser Agent/.test(await page.innerText()));
    const text = await page.innerText();
    for (const step of ['Choose a model', 'Launch a browser', 'Or attach to your own Chrome', 'Run a task in the chat panel', 'Stay in control', 'Use the tools from Copilot']) assert.ok(text.includes(step), `step "${step}" listed: ${text.slice(0, 600)}`);
    await wb.screenshot('get-started');
    await wb.closeActiveEditor();
  });

  it('Set Secret…: two plain steps, the value hidden; the agent types it by name and it never shows', async () => {
    await wb.runCommand('Browser Agent: Set Secret…', { opensQuickInput: true });
    const first = (await quickInput().innerText()).replace(/\s+/g, ' ');
    assert.match(first, /Set Secret \(1\/2\): a name for it/);
    assert.match(first, /\{\{secret:SHOP_PASSWORD\}\}; the model sees only the name, never the value/);
    await box().fill('1 bad name');
    await until('the name rule', async () => /Use letters, digits/.test(await quickInput().innerText()));
    await wb.screenshot('set-secret-name');
    await box().fill('E2E_PASSWORD');
    await wb.page.keyboard.press('Enter');
    await until('the second step', async () => /Set Secret \(2\/2\): the value of E2E_PASSWORD/.test(await quickInput().innerText()));
    assert.equal(await box().getAttribute('type'), 'password', 'the value is typed hidden');
    await box().fill(SECRET);
    await wb.screenshot('set-secret-value-hidden');
    assert.ok(!(await wb.page.locator('.quick-input-widget').innerText()).includes(SECRET), 'the value is not shown');
    await wb.page.keyboard.press('Enter');
    await quickInput().waitFor({ state: 'hidden', timeout: 15_000 });
    const saved = await newestNotification(/Secret "E2E_PASSWORD" saved/);
    assert.match(saved, /\{\{secret:E2E_PASSWORD\}\}/);
    await clearNotifications();

    // Used as the person was told: the password field gets the value; the question and the result only name it.
    const snap = await helper(wb, { tool: 'browser_snapshot', input: {} });
    const ref = /\[(\w+)\] textbox "Password"/.exec(snap.text ?? '')?.[1];
    assert.ok(ref, `the password field has a ref: ${snap.text?.slice(0, 500)}`);
    await runTool('browser_type', { ref, text: '{{secret:E2E_PASSWORD}}' });
    const modal = await wb.modal();
    const asked = await modal.innerText();
    assert.match(asked, /E2E_PASSWORD/);
    assert.match(asked, new RegExp(`Allow Browser Agent to type into textbox "Password" on ${site.replace(/\./g, '\\.')}\\?`));
    assert.ok(!asked.includes(SECRET), `the question does not show the value: ${asked}`);
    await wb.screenshot('secret-typed-asks');
    await modal.locator('.monaco-button').filter({ hasText: /^\s*Allow\s*$/ }).first().click();
    await modal.waitFor({ state: 'hidden', timeout: 15_000 });
    await until('the value typed into the field', async () => (await pageValue('document.getElementById("pw").value')) === SECRET);
    const typed = await newestNotification(/browser_type/);
    assert.ok(!typed.includes(SECRET), `the result does not show the value: ${typed}`);
    await wb.screenshot('secret-typed-result');
    await clearNotifications();

    // Delete Secret… lists it by name and says it is gone.
    await wb.runCommand('Browser Agent: Delete Secret…', { opensQuickInput: true });
    const row = wb.page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: 'E2E_PASSWORD' }).first();
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    await row.click();
    await newestNotification(/secret "E2E_PASSWORD" deleted/);
    await clearNotifications();
  });
});
