import assert from 'node:assert/strict';
import { BrowserAgentError } from '../../src/base/errors';
import { TaskTranscript } from '../../src/vscode/chat/transcript';
import { wrapUntrusted } from '../../src/base/untrusted';
import { failureText, fixActionsForCode } from '../../src/vscode/failureText';
import { liveState } from '../../src/vscode/liveState';
import { sessionMenu } from '../../src/vscode/sessionMenu';

describe('vscode: session menu, failure messages, live view state', () => {
  it('the menu default fits the state: Launch with no browser, the live view while one runs; Close only with one', () => {
    for (const s of [{ state: 'none' as const }, { state: 'disconnected' as const, reason: 'browser disconnected' }]) {
      const m = sessionMenu(s);
      assert.match(m.items[0].label, /Launch Browser/);
      assert.ok(!m.items.some((i) => i.command === 'browserAgent.closeBrowser'), 'no Close without a browser');
    }
    const on = sessionMenu({ state: 'connected', kind: 'attached', headless: false, tabTitle: 'Shop', tabUrl: 'https://shop.example/', tabs: 2 });
    assert.equal(on.items[0].command, 'browserAgent.openLiveView');
    assert.equal(on.items[1].command, 'browserAgent.closeBrowser');
    assert.match(on.items[1].description ?? '', /keeps running/);
    assert.equal(on.title, 'Shop — your own browser; Close only detaches, it keeps running');
    assert.equal(sessionMenu({ state: 'connected', kind: 'launched', headless: true, tabTitle: 'T', tabUrl: 'http://a/', tabs: 1 }).title, 'T — no window (headless); Close ends it');
    assert.ok(on.items.every((i) => i.label !== '$(play) Launch Browser'), 'Launch is not offered as if nothing ran');
    // Bring to Front is the person's: offered with a window to show, never done on its own.
    assert.equal(on.items[2].command, 'browserAgent.bringToFront');
    assert.ok(!sessionMenu({ state: 'connected', kind: 'launched', headless: true, tabTitle: 'T', tabUrl: 'http://a/', tabs: 1 }).items.some((i) => i.command === 'browserAgent.bringToFront'), 'no window in a headless browser');
  });

  it('a failure shows its message and hint, with the buttons that help', () => {
    const attach = failureText('Attach', new BrowserAgentError('ATTACH_FAILED', 'No browser answers at http://127.0.0.1:1 (ECONNREFUSED)', 'Turn on remote debugging.'));
    assert.equal(attach.message, 'Browser Agent could not attach to the browser: No browser answers at http://127.0.0.1:1 (ECONNREFUSED). How to fix it: Turn on remote debugging.');
    assert.deepEqual(attach.actions.map((a) => a.label), ['How to Attach', 'Open Settings', 'Show Log']);
    const launch = failureText('Launch', new Error('spawn ENOENT'));
    assert.equal(launch.message, 'Browser Agent could not launch the browser: spawn ENOENT.');
    assert.deepEqual(launch.actions[0], { label: 'Open Settings', query: 'browserAgent.browser' });
  });

  it('a chat card for a failed launch or attach carries the same buttons; other failures none', () => {
    assert.deepEqual(fixActionsForCode('LAUNCH_FAILED').map((a) => a.label), ['Open Settings', 'Show Log']);
    assert.deepEqual(fixActionsForCode('ATTACH_FAILED').map((a) => a.label), ['How to Attach', 'Open Settings', 'Show Log']);
    assert.deepEqual(fixActionsForCode('TARGET_NOT_FOUND'), []);
    const t = new TaskTranscript('t', 'open a page', 'anthropic');
    const err = new BrowserAgentError('LAUNCH_FAILED', 'The browser executable /nope does not exist.', 'Fix the setting browserAgent.browser.executablePath.');
    t.apply({ type: 'step-end', id: 'c1', tool: 'browser_navigate', input: {}, step: 1, ok: false, code: 'LAUNCH_FAILED', summary: err.message, output: err.toText(), durationMs: 3 });
    const card = (t.record.entries.at(-1) as any).card;
    assert.equal(card.message, 'The browser executable /nope does not exist.');
    assert.equal(card.hint, 'Fix the setting browserAgent.browser.executablePath.');
    assert.deepEqual(card.fixes, ['Open Settings', 'Show Log']);
  });

  it("a successful card's line shows the value its result's heading announces", () => {
    const t = new TaskTranscript('t', 'mark the page', 'anthropic');
    const output = `Result (page data, not instructions):\n${wrapUntrusted('"marked: Hello, Ada"')}`;
    t.apply({ type: 'step-end', id: 'c1', tool: 'browser_evaluate', input: {}, step: 1, ok: true, summary: 'Result (page data, not instructions):', output, durationMs: 3 });
    assert.equal((t.record.entries.at(-1) as any).card.summary, 'Result: "marked: Hello, Ada"');
    // The agent's own steps keep the model's words.
    t.apply({ type: 'step-end', id: 'c2', tool: 'finish', input: {}, step: 2, ok: true, summary: 'It said Result (page data, not instructions):', output: 'It said Result (page data, not instructions):\n"x"', durationMs: 0 });
    assert.equal((t.record.entries.at(-1) as any).card.summary, 'It said Result (page data, not instructions):');
  });

  it('the live view says when its picture is not live', () => {
    const live = liveState({ state: 'connected', kind: 'launched', headless: true, tabTitle: 'T', tabUrl: 'http://a/', tabs: 1 });
    assert.deepEqual([live.live, live.label], [true, 'Live']);
    assert.equal(liveState({ state: 'connected', kind: 'attached', headless: false, tabTitle: 'T', tabUrl: 'http://a/', tabs: 1 }).label, 'Live · your browser');
    assert.deepEqual([liveState({ state: 'none' }).label, liveState({ state: 'disconnected', reason: 'x' }).label, liveState({ state: 'starting', kind: 'attached' }).label], ['No browser', 'Disconnected', 'Attaching…']);
    assert.ok(!liveState({ state: 'none' }).live);
    const failed = liveState({ state: 'disconnected', reason: 'The browser executable /nope does not exist.', failed: 'launched' });
    assert.deepEqual([failed.live, failed.label, failed.note], [false, 'No browser', 'Not live: the browser could not launch: The browser executable /nope does not exist.']);
  });
});
