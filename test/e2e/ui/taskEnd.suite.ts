// A run's end as the Task History shows it: the moment the chat panel says how a task ended, the Task History view
// beside it says the same, never "Running" a moment longer (it used to, until its 300 ms refresh).
import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { startServer, type TestServer } from '../../helpers/servers';
import { teardown, until, webviewFrame, Workbench } from './workbench';

/** How much later than the panel the tree may say it (both are drawn by the same renderer, a frame or two apart). */
const SAME_MOMENT_MS = 150;

describe('UI: the Task History says how a task ended when the panel does', function () {
  this.timeout(180_000);
  let wb: Workbench;
  let chat: Frame;
  let server: TestServer;

  before(async () => {
    server = await startServer({ '/slow': '<!doctype html><title>Slow page</title><h1>Slow page</h1>' });
    wb = await Workbench.open('task-end');
    await wb.runCommand('Browser Agent: Open Chat');
    chat = await webviewFrame(wb, '#task');
    await chat.locator('.welcome').waitFor({ state: 'visible', timeout: 30_000 });
    await chat.locator('#model option', { hasText: 'Scripted (slow)' }).waitFor({ state: 'attached', timeout: 30_000 });
    await chat.locator('#model').selectOption({ label: 'Scripted (slow)' });
    await until('the picker to keep the slow model', async () => (await chat.locator('#model').evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent)) === 'Scripted (slow)');
  });
  teardown(() => wb, { cleanup: async () => server?.close() });

  it('Stop: the tree row says "Stopped by you" at the moment the panel does, never Running after', async () => {
    const marker = `stop-check-${Date.now().toString(36)}`;
    // Both in view, as a person has them: the chat, and Task History under it.
    await wb.runCommand('Browser Agent: Show Task History');
    await wb.runCommand('Browser Agent: Open Chat');
    const box = chat.locator('#task');
    await until('the task box to be enabled', () => box.isEnabled());
    await box.fill(`Open ${server.origin}/slow and think about it (${marker})`);
    await box.press('Enter');
    await chat.locator('.card[data-tool="browser_navigate"].ok').waitFor({ timeout: 60_000 });
    const row = wb.page.locator('.monaco-list-row[aria-level="1"]', { hasText: marker });
    await until('the running task in the Task History', async () => /^Running/.test((await row.first().innerText()).trim()));

    // Every change of the row's text, and the moment the panel's result shows, each stamped by the page's clock.
    await wb.page.evaluate((m) => {
      const w = window as unknown as { __rowTexts: { t: number; text: string }[] };
      w.__rowTexts = [];
      const read = () => {
        const r = [...document.querySelectorAll('.monaco-list-row[aria-level="1"]')].find((x) => (x.textContent ?? '').includes(m));
        const text = (r?.textContent ?? '(no row)').trim();
        if (w.__rowTexts.at(-1)?.text !== text) w.__rowTexts.push({ t: Date.now(), text });
      };
      read();
      new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    }, marker);
    await chat.evaluate(() => {
      const w = window as unknown as { __resultAt?: number };
      const seen = () => {
        if (!w.__resultAt && document.querySelector('.result-box')) w.__resultAt = Date.now();
      };
      new MutationObserver(seen).observe(document.body, { subtree: true, childList: true });
    });

    await chat.locator('#stop').click();
    await chat.locator('.result-box').waitFor({ state: 'visible', timeout: 30_000 });
    const resultAt = await chat.evaluate(() => (window as unknown as { __resultAt?: number }).__resultAt);
    assert.ok(resultAt, 'the panel showed a result');
    await until('the tree row to say Stopped', async () => /^Stopped by you/.test((await row.first().innerText()).trim()), 15_000);
    await wb.screenshot('stopped-panel-and-tree');
    const texts = await wb.page.evaluate(() => (window as unknown as { __rowTexts: { t: number; text: string }[] }).__rowTexts);
    const stoppedAt = texts.find((x) => /^Stopped by you/.test(x.text))?.t;
    const trail = texts.map((x) => `${x.t - resultAt!} ms: ${x.text.slice(0, 40)}`).join(' | ');
    assert.ok(stoppedAt, `the tree said Stopped: ${trail}`);
    assert.ok(stoppedAt - resultAt <= SAME_MOMENT_MS, `the tree said Stopped ${stoppedAt - resultAt} ms after the panel (at most ${SAME_MOMENT_MS}): ${trail}`);
    console.log(`      the row's texts, from the panel's result: ${trail}`);
    const runningAfter = texts.filter((x) => x.t > resultAt + SAME_MOMENT_MS && /^Running/.test(x.text));
    assert.deepEqual(runningAfter, [], `no Running after the panel said Stopped: ${trail}`);
  });
});
