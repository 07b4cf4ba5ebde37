// The session as a person meets it (issue 15, points 2, 4, 5, 10): the status bar's menu fits the state, Launch or
// Attach ask before replacing a running browser (the safe answer focused) and keep it when the new attempt fails,
// a failure shows its hint with buttons and the progress ends, a typed endpoint is offered in the attach picker, and
// the live view in an editor tab says when it is not live.
import * as assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { startServer, type TestServer } from '../../helpers/servers';
import { focusedInModal, helper, notifications, quickPickRows, STATUS, teardown, until, webviewFrame, Workbench } from './workbench';

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
  teardown(() => wb, { cleanup: async () => server?.close() });

  async function openMenu(): Promise<string[]> {
    await wb.statusItem(STATUS).click();
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
    // Plain words: "Browser: <title>"; the tooltip says whose browser it is and what "headless" means.
    const item = wb.statusItem(/Session page/);
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await wb.statusText(), 'Browser: Session page');
    const hover = wb.page.locator('.monaco-hover, .workbench-hover').filter({ hasText: /Started by Browser Agent/ }).first();
    // As a person does when a tooltip does not come up at once: move away and point at it again.
    const tip = await until('the status bar tooltip', async () => {
      await wb.page.mouse.move(700, 300);
      await item.hover();
      return (await hover.waitFor({ state: 'visible', timeout: 3_000 }).then(() => true, () => false)) && (await hover.innerText()).replace(/\s+/g, ' ');
    });
    await wb.screenshot('status-tooltip');
    assert.match(tip, /Started by Browser Agent, no window \(headless\)/);
    assert.match(tip, new RegExp(`Session page · ${server.origin.replace(/[.]/g, '\\.')}/session · 1 tab\\(s\\)`), tip);
    assert.match(tip, /Click for actions/);
    await wb.page.mouse.move(700, 300);
    const rows = await openMenu();
    await wb.screenshot('menu-running');
    assert.match(rows[0], /Open Live View/);
    assert.match(await wb.page.locator('.quick-input-widget').innerText(), /Session page — no window \(headless\); Close ends it/, 'the menu says whose browser it is');
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
    assert.equal(await wb.statusText(), 'Browser: Session page', 'nothing was replaced');
  });

  it('Replace with an attach that fails: the running browser is kept, the hint and buttons show, the progress ends', async () => {
    await wb.runCommand('Browser Agent: Attach to Browser…', { opensQuickInput: true });
    await wb.page.locator('.quick-input-widget input.input').fill(DEAD);
    await until('the typed endpoint row', async () => (await quickPickRows(wb)).some((x) => x.includes(`Attach to ${DEAD}`)));
    await wb.page.keyboard.press('Enter');
    const box = await wb.modal();
    await box.locator('.monaco-button').filter({ hasText: /^\s*Replace\s*$/ }).click();
    await box.waitFor({ state: 'hidden', timeout: 10_000 });
    await wb.statusItem(/Browser: Session page/).waitFor({ state: 'visible', timeout: 30_000 });
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

  /** The Get Started walkthrough's open step: its title and its text, as shown. */
  async function openStep(): Promise<{ title: string; text: string; step: Locator }> {
    const step = wb.page.locator('.gettingStartedContainer .getting-started-step.expanded');
    await step.waitFor({ state: 'visible', timeout: 30_000 });
    const title = (await step.locator('.step-title').innerText()).trim();
    return { title, text: (await step.innerText()).replace(/\s+/g, ' '), step };
  }

  /** What the attach step must tell a person, whatever the editor's width: the three ways to attach. */
  function assertSaysHowToAttach(text: string): void {
    assert.match(text, /chrome:\/\/inspect\/#remote-debugging/, text);
    assert.match(text, /--remote-debugging-port=9222/, text);
    assert.match(text, /Browser Agent Chrome extension: pair it/, text);
    assert.match(text, /Attach to Browser/, text);
    assert.match(text, /Pair Chrome Extension/, text);
  }

  /** How far right the element's text reaches, and where it is cut (clipping ancestors, an overlaid scrollbar). */
  async function textFits(el: Locator): Promise<{ right: number; clip: number }> {
    return el.evaluate((node) => {
      const range = document.createRange();
      range.selectNodeContents(node);
      const right = Math.max(...Array.from(range.getClientRects()).map((r) => r.right));
      let clip = Infinity;
      for (let a = node.parentElement; a; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible') clip = Math.min(clip, a.getBoundingClientRect().right);
      const box = node.getBoundingClientRect();
      for (const bar of Array.from(document.querySelectorAll('.gettingStartedContainer .scrollbar.vertical'))) {
        const r = bar.getBoundingClientRect();
        if (r.width > 0 && getComputedStyle(bar).visibility !== 'hidden' && r.top < box.bottom && r.bottom > box.top && r.left > box.left) clip = Math.min(clip, r.left);
      }
      return { right: Math.round(right), clip: Math.round(clip) };
    });
  }

  it('How to Attach on the failure opens Get Started on "Or attach to your own Chrome", which says how, also in a narrow editor', async () => {
    await wb.runCommand('Notifications: Show Notifications');
    const failure = wb.page.locator('.notifications-center .notification-list-item').filter({ hasText: /could not attach/ }).first();
    await failure.locator('.monaco-button', { hasText: 'How to Attach' }).click();
    // The Notification Center stays open over the editor: close it as a person would, with its own button.
    await wb.page.locator('.notifications-center .codicon-notifications-hide, .notifications-center .codicon-chevron-down').first().click().catch(() => {});
    const { title, text } = await openStep();
    assert.equal(title, 'Or attach to your own Chrome');
    assertSaysHowToAttach(text);
    await wb.screenshot('how-to-attach');
    // A narrow editor drops the guide beside the steps: the step's own text must still say what to do.
    await wb.page.setViewportSize({ width: 1100, height: 900 });
    try {
      await until('the walkthrough to lay out for a narrow editor', async () => /width-(semi-)?constrained/.test((await wb.page.locator('.gettingStartedContainer').getAttribute('class')) ?? ''));
      const narrow = await openStep();
      assert.equal(narrow.title, 'Or attach to your own Chrome');
      assertSaysHowToAttach(narrow.text);
      // Shown, not only in the DOM: no line of the description runs under the scrollbar or past the editor's edge.
      const fit = await textFits(narrow.step.locator('.step-description-container').first());
      assert.ok(fit.right <= fit.clip, `the description is cut at the right: ${JSON.stringify(fit)}`);
      await wb.screenshot('how-to-attach-narrow');
    } finally {
      await wb.page.setViewportSize({ width: 1400, height: 900 });
    }
    await wb.closeActiveEditor();
  });

  it('How to Attach to Your Chrome from the palette, opened while the Explorer has the focus, lands on the same step', async () => {
    const explorer = wb.page.locator('.part.sidebar .explorer-folders-view').first();
    // The Explorer's icon toggles the side bar: click it only when the Explorer is not showing.
    if (!(await explorer.isVisible())) await wb.page.locator('.activitybar .action-item a[aria-label^="Explorer"]').first().click();
    await explorer.click();
    assert.equal(await wb.page.evaluate(() => !!document.activeElement?.closest('.part.sidebar')), true, 'the Explorer has the focus');
    await wb.runCommand('Browser Agent: How to Attach to Your Chrome');
    const { title, text } = await openStep();
    assert.equal(title, 'Or attach to your own Chrome');
    assertSaysHowToAttach(text);
    await wb.screenshot('how-to-attach-from-palette');
    await wb.closeActiveEditor();
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
