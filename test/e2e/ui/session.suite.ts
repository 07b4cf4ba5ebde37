// The session as a person meets it (issue 15, points 2, 4, 5, 10): the status bar's menu fits the state, Launch or
// Attach ask before replacing a running browser (the safe answer focused) and keep it when the new attempt fails,
// a failure shows its hint with buttons and the progress ends, a typed endpoint is offered in the attach picker, and
// the live view in an editor tab says when it is not live.
import * as assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../helpers/servers';
import { focusedInModal, helper, notifications, quickPickRows, until, webviewFrame, Workbench } from './workbench';

const PAGE = '<!doctype html><title>Session page</title><h1 style="font-size:64px">Session page</h1>';
const DEAD = 'http://127.0.0.1:1';

describe('UI: session — menu, replace prompt, failures, live view', function () {
  this.timeout(180_000);
  let wb: Workbench;
  let server: TestServer;

  before(async () => {
    server = await startServer({ '/session': PAGE });
    wb = await Workbench.open('session');
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && wb) await wb.screenshot(`failed-${this.currentTest.title.slice(0, 30).replace(/\W+/g, '-')}`).catch(() => {});
    await wb?.page.keyboard.press('Escape').catch(() => {});
  });
  after(async () => {
    if (wb) {
      await wb.runCommand('Browser Agent: Close Browser').catch(() => {});
      await wb.close();
    }
    await server?.close();
  });

  async function openMenu(): Promise<string[]> {
    await wb.statusItem(/Browser|launched|attached/).click();
    return quickPickRows(wb);
  }

  it('with no browser, the session menu offers Launch first and no Close', async () => {
    const rows = await openMenu();
    await wb.screenshot('menu-no-browser');
    assert.match(rows[0], /Launch Browser/);
    assert.ok(!rows.some((r) => /Close Browser/.test(r)), rows.join(' | '));
  });

  it('with a browser running, the menu offers the live view first and Close, not a plain Launch', async () => {
    const nav = await helper(wb, { tool: 'browser_navigate', input: { url: `${server.origin}/session` } });
    assert.equal(nav.status, 'ok', nav.text);
    await wb.statusItem(/Session page/).waitFor({ state: 'visible', timeout: 30_000 });
    const rows = await openMenu();
    await wb.screenshot('menu-running');
    assert.match(rows[0], /Open Live View/);
    assert.ok(rows.some((r) => /Close Browser/.test(r)));
    assert.ok(!rows.some((r) => /^Launch Browser$/.test(r)), rows.join(' | '));
  });

  it('Attach while one runs: a typed endpoint is offered, then "Replace the running browser?" with Keep focused; Enter keeps it', async () => {
    await wb.runCommand('Browser Agent: Attach to Browser…', { opensQuickInput: true });
    await wb.page.locator('.quick-input-widget input.input').fill(DEAD);
    const rows = await until('the typed endpoint row', async () => {
      const r = await quickPickRows(wb);
      return r.some((x) => x.includes(`Attach to ${DEAD}`)) && r;
    });
    await wb.screenshot('attach-typed-endpoint');
    assert.match(rows[0], new RegExp(`Attach to ${DEAD}`));
    await wb.page.keyboard.press('Enter');
    const box = await wb.modal();
    const text = await box.innerText();
    await wb.screenshot('replace-prompt');
    assert.match(text, /Replace the running browser\?/);
    assert.match(text, /Session page/, 'names what runs now');
    assert.equal(await focusedInModal(wb), 'Keep Current Browser');
    await wb.page.keyboard.press('Enter');
    await box.waitFor({ state: 'hidden', timeout: 10_000 });
    await wb.page.waitForTimeout(1000);
    assert.match(await wb.statusText(), /launched.*Session page/, 'nothing was replaced');
  });

  it('Replace with an attach that fails: the running browser is kept, the hint and buttons show, the progress ends', async () => {
    await wb.runCommand('Browser Agent: Attach to Browser…', { opensQuickInput: true });
    await wb.page.locator('.quick-input-widget input.input').fill(DEAD);
    await until('the typed endpoint row', async () => (await quickPickRows(wb)).some((x) => x.includes(`Attach to ${DEAD}`)));
    await wb.page.keyboard.press('Enter');
    const box = await wb.modal();
    await box.locator('.monaco-button').filter({ hasText: /^\s*Replace\s*$/ }).click();
    await box.waitFor({ state: 'hidden', timeout: 10_000 });
    await wb.statusItem(/launched.*Session page/).waitFor({ state: 'visible', timeout: 30_000 });
    const probe = await helper(wb, { probe: 'document.title' });
    assert.equal(probe.value, 'Session page', 'the running browser still answers');
    const texts = await until('the failure notification', async () => {
      const n = await notifications(wb);
      return n.some((t) => /could not attach/.test(t)) && n;
    });
    await wb.screenshot('attach-failed-hint');
    const failure = texts.find((t) => /could not attach/.test(t))!;
    assert.match(failure, /How to fix it:/);
    assert.match(failure, /How to Attach/);
    assert.match(failure, /Open Settings/);
    // The progress notification ends with the attempt; VS Code removes it a moment after the failure shows.
    let left = texts;
    await until('the attach progress to end', async () => {
      left = await notifications(wb);
      return !left.some((t) => /attaching to/.test(t));
    }, 10_000).catch(() => assert.fail(`no progress left: ${left.join(' | ')}`));
    assert.doesNotMatch(await wb.statusText(), /attaching/);
  });

  it('Open Live View: the page in an editor tab with its URL; after Close it says "No browser"', async () => {
    await wb.runCommand('Browser Agent: Open Live View');
    const live = await webviewFrame(wb, '#live-frame');
    await until('a frame in the live view', () => live.locator('#live-frame').evaluate((i: HTMLImageElement) => !i.hidden && i.naturalWidth > 0));
    assert.match(await live.locator('#state').innerText(), /Live/);
    assert.match(await live.locator('#url').innerText(), /\/session/);
    await wb.screenshot('live-view-tab');
    await wb.runCommand('Browser Agent: Close Browser');
    await until('the No browser state', async () => /No browser/.test(await live.locator('#state').innerText()));
    assert.match(await live.locator('#empty').innerText(), /Not live/);
    assert.equal(await live.locator('#live-frame').evaluate((i) => i.classList.contains('stale')), true, 'the old picture is greyed out');
    await wb.screenshot('live-view-no-browser');
  });
});
