// Drives the code-server workbench in headless Chromium the way a person does: keyboard, command palette,
// status bar, modal dialogs. Screenshots go to test-artifacts/e2e/.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

export const env = {
  url: () => required('BA_E2E_WORKBENCH_URL'),
  results: () => required('BA_E2E_RESULTS'),
  artifacts: () => required('BA_E2E_ARTIFACTS'),
};

function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the UI suite through \`npm run test:e2e\``);
  return v;
}

/** Browser Agent's status bar entry, in any state (none, a page title, your browser, your Chrome). */
export const STATUS = /Browser: |Browser \(shared\): |Your browser: |Your Chrome: /;

export class Workbench {
  private shot = 0;
  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    private readonly prefix: string,
  ) {}

  /** Opens the workbench and waits until it is ready and Browser Agent's status bar item shows. */
  static async open(prefix: string): Promise<Workbench> {
    const browser = (globalThis as { __baE2eBrowser?: Browser }).__baE2eBrowser;
    if (!browser) throw new Error('no browser: run the UI suite through `npm run test:e2e`');
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const wb = new Workbench(context, page, prefix);
    await page.goto(env.url(), { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
    await wb.statusItem(/Browser: none/).waitFor({ state: 'visible', timeout: 60_000 });
    return wb;
  }

  async close(): Promise<void> {
    await this.context.close();
  }

  /** Browser Agent's status bar entry whose label matches. */
  statusItem(text: RegExp): Locator {
    return this.page.locator('.statusbar-item').filter({ hasText: text }).first();
  }

  async statusText(): Promise<string> {
    const items = await this.page.locator('.statusbar-item').allInnerTexts();
    return items.find((t) => STATUS.test(t))?.trim() ?? '';
  }

  /** F1, type the command's full title, Enter — exactly what a person does. */
  async runCommand(title: string, opts: { opensQuickInput?: boolean } = {}): Promise<void> {
    const input = this.page.locator('.quick-input-widget input.input');
    // A focused webview (a walkthrough's guide, the chat) may keep F1 to itself: then the person clicks the
    // command center at the top of the window, which opens the same palette. Under load the palette can take
    // seconds to show, and a second opener would toggle it shut again, so each attempt first looks whether it is
    // up. An editor that takes the focus as it finishes rendering (Get Started does) closes the palette while it
    // is being typed into: then the whole attempt is made again.
    const openers = [() => this.page.keyboard.press('F1'), () => this.page.locator('.command-center .action-item').first().click()];
    for (let attempt = 0; ; attempt++) {
      try {
        if (!(await input.isVisible())) {
          if (attempt === 0) await this.page.locator('.monaco-workbench').click({ position: { x: 700, y: 400 } }).catch(() => {});
          await openers[attempt % openers.length]();
          await input.waitFor({ state: 'visible', timeout: 5_000 });
        }
        await input.fill(`>${title}`, { timeout: 5_000 });
        // Wait until the palette lists exactly this command before pressing Enter.
        await this.page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: title }).first().waitFor({ state: 'visible', timeout: 15_000 });
        break;
      } catch (e) {
        if (attempt === 3) throw new Error(`The command palette did not take "${title}" (F1 and the command center tried twice each): ${(e as Error).message}`, { cause: e });
      }
    }
    await this.page.keyboard.press('Enter');
    // A command that asks in a quick pick of its own replaces the palette instead of hiding it.
    if (opts.opensQuickInput) await this.page.locator('.quick-input-widget input.input:not([placeholder^="Type the name of a command"])').waitFor({ state: 'visible', timeout: 15_000 });
    else await input.waitFor({ state: 'hidden', timeout: 15_000 });
  }

  /** Closes the active editor with its tab's close button (no keyboard: the editor may hold the focus). */
  async closeActiveEditor(): Promise<void> {
    const tab = this.page.locator('.tabs-container .tab.active');
    await tab.hover();
    await tab.locator('.tab-actions .action-label').first().click();
    await tab.waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {});
  }

  /** The modal dialog VS Code shows for `showWarningMessage(…, { modal: true })`, once it is up. */
  async modal(timeoutMs = 30_000): Promise<Locator> {
    const box = this.page.locator('.monaco-dialog-box');
    await box.waitFor({ state: 'visible', timeout: timeoutMs });
    return box;
  }

  async screenshot(name: string): Promise<string> {
    const file = join(env.artifacts(), `${this.prefix}-${String(++this.shot).padStart(2, '0')}-${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }
}

/** A test title as a file-name part: `failed-<slug>.png`. */
export function slug(title: string): string {
  return title.slice(0, 40).toLowerCase().replace(/\W+/g, '-').replace(/^-|-$/g, '');
}

export interface TeardownOptions {
  /** More to leave behind after a failed test (after its screenshot), e.g. the chat's text. */
  onFailure?: () => Promise<unknown>;
  /** Escape presses after each test so a modal or quick pick a failed step left open cannot block the next. Default 1. */
  escapes?: number;
  /** Run last: the suite's servers, other browsers. */
  cleanup?: () => Promise<unknown>;
}

/**
 * The hooks every UI suite needs, registered in the calling `describe`: after a failed test a screenshot named
 * after it (and `onFailure`), then Escape; at the end Close Browser (no browser outlives its suite), the
 * workbench closed, then `cleanup`. `get` reads the suite's workbench, which `before` creates.
 */
export function teardown(get: () => Workbench | undefined, opts: TeardownOptions = {}): void {
  afterEach(async function () {
    const wb = get();
    if (!wb) return;
    if (this.currentTest?.state === 'failed') {
      await wb.screenshot(`failed-${slug(this.currentTest.title)}`).catch(() => {});
      await opts.onFailure?.().catch(() => {});
    }
    for (let i = 0; i < (opts.escapes ?? 1); i++) await wb.page.keyboard.press('Escape').catch(() => {});
  });
  after(async () => {
    const wb = get();
    if (wb) {
      await wb.runCommand('Browser Agent: Close Browser').catch(() => {});
      await wb.close().catch(() => {});
    }
    await opts.cleanup?.();
  });
}

export interface HelperOutcome {
  id: string;
  tool?: string;
  status: 'ok' | 'cancelled' | 'error';
  code?: string;
  text?: string;
  value?: unknown;
  url?: string;
}

/** A tool call (through vscode.lm.invokeTool, or `via: 'command'` through browserAgent.runTool), or a probe. */
export type HelperRequest = { tool: string; input: object; via?: 'lm' | 'command' } | { probe: string } | { kill: 'browser' };

let nextId = 0;

/**
 * Asks the test-helper extension to run one tool call (or a probe of the page through Browser Agent's API)
 * from the command palette; returns a function that waits for its outcome.
 */
export async function requestHelper(wb: Workbench, request: HelperRequest): Promise<() => Promise<HelperOutcome>> {
  const id = `${Date.now().toString(36)}-${++nextId}`;
  writeFileSync(join(env.results(), 'request.json'), JSON.stringify({ id, ...request }));
  await wb.runCommand('Browser Agent E2E: Run Pending Tool Call');
  const file = join(env.results(), `result-${id}.json`);
  return async () => {
    const deadline = Date.now() + 60_000;
    while (!existsSync(file)) {
      if (Date.now() > deadline) throw new Error(`no outcome for ${JSON.stringify(request)} within 60 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return JSON.parse(readFileSync(file, 'utf8')) as HelperOutcome;
  };
}

export async function helper(wb: Workbench, request: HelperRequest): Promise<HelperOutcome> {
  return (await requestHelper(wb, request))();
}

/** package.json of the extension under test, as packaged. */
export function manifest(): {
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    languageModelTools?: { name: string; inputSchema?: { properties?: Record<string, unknown>; required?: string[] } }[];
  };
} {
  return JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8'));
}

/** The webview document (webviews are nested iframes) that contains `selector`. */
export async function webviewFrame(wb: Workbench, selector: string, timeoutMs = 30_000): Promise<import('playwright-core').Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const f of wb.page.frames()) {
      if (f === wb.page.mainFrame()) continue;
      if (await f.locator(selector).count().catch(() => 0)) return f;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no webview with ${selector} appeared`);
}

/** Polls until `fn` gives a truthy value. */
export async function until<T>(what: string, fn: () => Promise<T | undefined | false | null>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The text of the focused element inside the modal dialog (which button Enter would press). */
export async function focusedInModal(wb: Workbench): Promise<string> {
  return wb.page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el && el.closest('.monaco-dialog-box') ? (el.innerText || el.textContent || '').trim() : `(focus outside the dialog: ${el?.tagName})`;
  });
}

/** Every notification's text, from the Notification Center (toasts are hidden with the smoke-test driver). */
export async function notifications(wb: Workbench): Promise<string[]> {
  await wb.runCommand('Notifications: Show Notifications');
  const items = wb.page.locator('.notifications-center .notification-list-item');
  await items.first().waitFor({ state: 'visible', timeout: 5_000 }).catch(() => {});
  return items.allInnerTexts();
}

/** The rows of the open quick pick. */
export async function quickPickRows(wb: Workbench): Promise<string[]> {
  const rows = wb.page.locator('.quick-input-widget .monaco-list-row');
  await rows.first().waitFor({ state: 'visible', timeout: 15_000 });
  return (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
}

/**
 * The part of a tree row's label a person can read: the characters laid out left of where the row is cut off
 * (the nearest clipping ancestor's right edge, less room for the ellipsis). The whole label when nothing is cut.
 */
export async function readableLabel(row: Locator): Promise<string> {
  return row.locator('.label-name').first().evaluate((el) => {
    let clip = Infinity;
    for (let a: HTMLElement | null = el as HTMLElement; a && !a.classList.contains('monaco-list-row'); a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') clip = Math.min(clip, a.getBoundingClientRect().right);
    }
    const text = el.textContent ?? '';
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let shown = '';
    const range = document.createRange();
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (let i = 0; i < (n.textContent ?? '').length; i++) {
        range.setStart(n, i);
        range.setEnd(n, i + 1);
        if (range.getBoundingClientRect().right > clip - 14) return shown;
        shown += n.textContent![i];
      }
    }
    return shown || text;
  });
}
