// The safety policy's confirmation as a person meets it: an action rated `confirm` (browser_evaluate always
// is) shows a VS Code modal dialog; Allow → the action happens in the page; Cancel → it does not, and the
// result says so. Two routes, both from the test-helper extension's palette command in a real window
// (extensionTestsPath mode refuses modals, so this cannot live in the in-host suite):
//   • browserAgent.runTool — no prepareInvocation, so the policy itself asks with showWarningMessage(modal);
//   • vscode.lm.invokeTool — Copilot's route: prepareInvocation returns confirmationMessages and VS Code's tool
//     service asks (outside a chat session it uses a modal dialog too).
import * as assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../helpers/servers';
import { focusedInModal, helper, manifest, requestHelper, teardown, Workbench, type HelperRequest } from './workbench';

const PAGE = '<!doctype html><title>Confirm test</title><h1>Confirm test</h1><p id="state">untouched</p>';

/** browser_evaluate's input for a script that marks the page, whichever field name the schema uses. */
function evaluateInput(mark: string): object {
  const tool = manifest().contributes.languageModelTools?.find((t) => t.name === 'browser_evaluate');
  const props = Object.keys(tool?.inputSchema?.properties ?? {});
  const body = `document.getElementById('state').textContent = ${JSON.stringify(mark)}; return 'marked ' + ${JSON.stringify(mark)};`;
  if (props.includes('function')) return { function: `() => { ${body} }` };
  const field = ['script', 'expression', 'code', 'js'].find((p) => props.includes(p)) ?? 'script';
  return { [field]: `(() => { ${body} })()` };
}

const ROUTES = [
  { via: 'command' as const, name: "Browser Agent's modal (browserAgent.runTool)", allow: /^\s*Allow\s*$/ },
  { via: 'lm' as const, name: "VS Code's tool confirmation (vscode.lm.invokeTool)", allow: /^\s*(Allow|Yes|Continue)\s*$/ },
];

describe('UI: confirm-rated action answered in a modal dialog', () => {
  let wb: Workbench;
  let server: TestServer;

  before(async function () {
    const tools = manifest().contributes.languageModelTools ?? [];
    const missing = ['browser_navigate', 'browser_evaluate'].filter((n) => !tools.some((t) => t.name === n));
    if (!manifest().contributes.commands.some((c) => c.command === 'browserAgent.runTool')) missing.push('command browserAgent.runTool');
    assert.deepEqual(missing, [], 'package.json declares the tools and the Run Tool command this suite uses');
    server = await startServer({ '/confirm': PAGE });
    wb = await Workbench.open('confirm');
    const nav = await helper(wb, { tool: 'browser_navigate', input: { url: `${server.origin}/confirm` } });
    assert.equal(nav.status, 'ok', `navigate: ${nav.text}`);
    await wb.statusItem(/Confirm test/).waitFor({ state: 'visible', timeout: 30_000 });
  });
  teardown(() => wb, { cleanup: async () => server?.close() });

  /** Reads the page through Browser Agent's session API: a channel independent of the tool under test. */
  async function pageState(): Promise<string> {
    const probe = await helper(wb, { probe: 'document.getElementById("state").textContent' });
    assert.equal(probe.status, 'ok', `probe: ${probe.text}`);
    return String(probe.value);
  }

  /** Waits for the modal, checks it names the action and the page, screenshots it, clicks the button. */
  async function answer(button: RegExp, shot: string): Promise<string> {
    const box = await wb.modal();
    const message = await box.innerText();
    await wb.screenshot(shot);
    await box.locator('.monaco-button').filter({ hasText: button }).first().click();
    await box.waitFor({ state: 'hidden', timeout: 15_000 });
    // Exactly one question per action: a second dialog would mean the person is asked twice.
    await wb.page.waitForTimeout(500);
    assert.equal(await wb.page.locator('.monaco-dialog-box').count(), 0, 'a second modal appeared');
    return message;
  }

  it("Browser Agent's modal: one plain question naming the site, the script once, Don't Allow focused — Enter refuses", async () => {
    const before = await pageState();
    const mark = 'entered';
    const outcome = await requestHelper(wb, { tool: 'browser_evaluate', input: evaluateInput(mark), via: 'command' });
    const box = await wb.modal();
    const title = (await box.locator('.dialog-message-text').innerText()).trim();
    const detail = await box.locator('.dialog-message-detail').innerText();
    const site = new URL(server.origin).host;
    await wb.screenshot('modal-question-focus');
    assert.equal(title, `Allow Browser Agent to run JavaScript on ${site}?`);
    assert.equal(detail.split(`= "${mark}"`).length - 1, 1, `the script once: ${detail}`);
    assert.doesNotMatch(`${title}\n${detail}`, /always-confirm|Rule:/, 'no rule ids in the dialog');
    const buttons = (await box.locator('.monaco-button').allInnerTexts()).map((b) => b.trim());
    // As laid out (left to right): the narrowest grant first, the refusals last, Don't Allow focused.
    assert.deepEqual(buttons, ['Allow', `Allow on ${site} for This Session`, 'Cancel', "Don't Allow"], `the buttons in order: ${buttons.join(' | ')}`);
    assert.equal(await focusedInModal(wb), "Don't Allow");
    await wb.page.keyboard.press('Enter');
    await box.waitFor({ state: 'hidden', timeout: 15_000 });
    const result = await outcome();
    assert.equal(result.code, 'BLOCKED_BY_POLICY', `Enter refused: ${result.text}`);
    assert.equal(await pageState(), before, 'the page did not change');
  });

  for (const route of ROUTES) {
    const call = (mark: string): HelperRequest => ({ tool: 'browser_evaluate', input: evaluateInput(mark), via: route.via });

    it(`${route.name}: Allow → the script ran in the page`, async () => {
      const mark = `allowed via ${route.via}`;
      const outcome = await requestHelper(wb, call(mark));
      const message = await answer(route.allow, `modal-${route.via}-allow`);
      assert.match(message, /JavaScript|evaluate|script/i, `the dialog names the action: ${message}`);
      // VS Code's own dialog shows the body as plain text: markdown escapes would show literally.
      assert.ok(message.includes('browser_evaluate') && !/\\[_{}<>*`[\]]/.test(message), `the dialog reads cleanly, no markdown escapes: ${message}`);
      if (route.via === 'command') assert.match(message, /127\.0\.0\.1|Confirm test/, `the dialog names the page: ${message}`);
      const result = await outcome();
      assert.equal(result.status, 'ok', `result: ${result.status} ${result.text}`);
      assert.match(result.text ?? '', new RegExp(`marked ${mark}`));
      assert.equal(await pageState(), mark);
      await wb.screenshot(`after-${route.via}-allow`);
    });

    it(`${route.name}: Cancel → the script did not run, and the result says so`, async () => {
      const before = await pageState();
      const mark = `cancelled via ${route.via}`;
      const outcome = await requestHelper(wb, call(mark));
      await answer(/^\s*Cancel\s*$/, `modal-${route.via}-cancel`);
      const result = await outcome();
      if (route.via === 'command') {
        assert.equal(result.status, 'error', `a refusal is an error result for the model: ${result.text}`);
        assert.equal(result.code, 'BLOCKED_BY_POLICY');
        assert.match(result.text ?? '', /declined/i);
      } else {
        // VS Code's tool service rejects the call with a CancellationError when its confirmation is declined.
        assert.equal(result.status, 'cancelled', `result: ${result.status} ${result.text}`);
      }
      assert.doesNotMatch(result.text ?? '', new RegExp(`marked ${mark}|Result:`), 'the script did not run');
      assert.equal(await pageState(), before, 'the page did not change');
      await wb.screenshot(`after-${route.via}-cancel`);
    });
  }
});
