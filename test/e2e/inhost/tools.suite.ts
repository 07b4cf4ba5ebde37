// Every tool the manifest declares is known to VS Code's tool service, and a model's path through it —
// navigate → snapshot → type → click — changes a real page. Runs as soon as package.json declares
// contributes.languageModelTools; until then it is skipped with the reason.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startServer, type TestServer } from '../../helpers/servers';
import { api, manifest } from './extension';
import { refFor, resultText } from './toolResults';
import type { ConfirmRequest } from '../../../src/safety/decider';
import { modalText } from '../../../src/vscode/modalText';

const PAGE = `<!doctype html><html><head><title>Shopping list</title></head><body>
<h1>Shopping list</h1>
<label for="item">Item name</label> <input id="item" type="text">
<button id="add" type="button" onclick="
  const li = document.createElement('li');
  li.textContent = document.getElementById('item').value;
  document.getElementById('list').append(li);
  document.title = 'Shopping list (' + document.querySelectorAll('#list li').length + ')';
">Add item</button>
<ul id="list"></ul>
</body></html>`;

const declaredTools = () => manifest().contributes.languageModelTools ?? [];

function invoke(name: string, input: object): Thenable<vscode.LanguageModelToolResult> {
  return vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
}

describe('Language-model tools through vscode.lm', () => {
  let server: TestServer | undefined;

  before(() => {
    assert.ok(declaredTools().length > 0, 'package.json declares contributes.languageModelTools');
  });
  after(async () => {
    await vscode.commands.executeCommand('browserAgent.closeBrowser');
    await server?.close();
  });

  it('every tool in contributes.languageModelTools is in vscode.lm.tools', async () => {
    await api();
    const declared = declaredTools().map((t) => t.name);
    const known = new Set(vscode.lm.tools.map((t) => t.name));
    const missing = declared.filter((n) => !known.has(n));
    assert.deepEqual(missing, [], `declared but not in vscode.lm.tools: ${missing.join(', ')}`);
    for (const t of vscode.lm.tools.filter((t) => declared.includes(t.name))) {
      assert.ok(t.description.length > 20, `${t.name} has a description for the model`);
      assert.ok(t.inputSchema && typeof t.inputSchema === 'object', `${t.name} has an input schema`);
    }
  });

  it('every declared tool has an implementation registered, which rejects bad input with a clear error', async () => {
    // vscode.lm.tools lists what package.json declares even when nothing called registerTool; only an
    // invocation reaches the implementation. Input that is not an object fails every schema before any
    // handler runs, so this has no side effects.
    await api();
    const problems: string[] = [];
    for (const { name } of declaredTools()) {
      try {
        const text = resultText(await invoke(name, 'e2e: deliberately not an object' as unknown as object));
        if (!/INVALID_INPUT|invalid/i.test(text)) problems.push(`${name}: accepted bad input: ${text.slice(0, 200)}`);
      } catch (e) {
        problems.push(`${name}: ${(e as Error).message}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('navigate → snapshot → type → click changes the page', async () => {
    const needed = ['browser_navigate', 'browser_snapshot', 'browser_click', 'browser_type'];
    assert.deepEqual(needed.filter((n) => !declaredTools().some((t) => t.name === n)), [], 'the tools this test uses are declared');
    const { sessions } = await api();
    server = await startServer({ '/list': PAGE });
    const url = `${server.origin}/list`;

    const nav = resultText(await invoke('browser_navigate', { url }));
    assert.match(nav, /Shopping list/, `navigate result names the page: ${nav}`);

    const snapshot = resultText(await invoke('browser_snapshot', {}));
    const box = refFor(snapshot, 'Item name');
    const button = refFor(snapshot, 'Add item');

    const typed = resultText(await invoke('browser_type', { ref: box, text: 'Oat milk' }));
    assert.doesNotMatch(typed, /error|not found|stale/i, typed);
    const clicked = resultText(await invoke('browser_click', { ref: button }));
    assert.doesNotMatch(clicked, /error|not found|stale/i, clicked);

    // Check the page itself, not what the tools said about it.
    const tab = await sessions.current!.activeTab();
    assert.equal(await tab.evaluate('location.href'), url);
    assert.equal(await tab.evaluate('document.getElementById("item").value'), 'Oat milk');
    assert.deepEqual(await tab.evaluate('[...document.querySelectorAll("#list li")].map((li) => li.textContent)'), ['Oat milk']);
    assert.equal(await tab.evaluate('document.title'), 'Shopping list (1)');
  });

  it('browser_run_script through vscode.lm: each call of the script goes through the window\'s gate, and the question shows the script and the line', async () => {
    const a = await api();
    server ??= await startServer({});
    server.route('/account/settings', `<!doctype html><title>Account settings</title><h1>Account</h1><button onclick="document.title = 'Account deleted'">Delete account</button>`);
    const asked: ConfirmRequest[] = [];
    // In place of the person at the modal: the window's confirmer, answered Allow.
    a.safety.setConfirmer(async (req) => (asked.push(req), 'allow'));
    try {
      const script = "await browser.navigate({ url: args.url });\nconst s = await browser.snapshot();\nawait browser.click({ ref: refOf(s, 'button', 'Delete account') });\nreturn 'clicked';";
      const text = resultText(await invoke('browser_run_script', { script, args: { url: `${server.origin}/account/settings` } }));
      assert.match(text, /return: "clicked"/, text);
      assert.equal(asked.length, 1, 'the one confirm-rated call was asked about');
      assert.deepEqual({ ...asked[0].preview?.inScript, script: undefined }, { call: 3, line: 3, fn: 'click', script: undefined });
      const modal = modalText(asked[0]);
      assert.match(modal.title, /Delete account/);
      assert.match(modal.detail, /In a script: call 3 \(browser\.click, line 3\)/);
      assert.match(modal.detail, /→\s+3\s+await browser\.click/);
      assert.equal(await (await a.sessions.current!.activeTab()).evaluate('document.title'), 'Account deleted');
    } finally {
      a.safety.setConfirmer(undefined);
    }
  });

  it('browserAgent.snapshot.maxTokens sets the budget of a snapshot the model calls without one', async () => {
    await api();
    server ??= await startServer({});
    server.route('/long', `<!doctype html><title>Long</title>${Array.from({ length: 400 }, (_, i) => `<p>Paragraph ${i} of a long page, with a few more words.</p>`).join('')}`);
    await invoke('browser_navigate', { url: `${server.origin}/long` });
    const config = vscode.workspace.getConfiguration('browserAgent');
    await config.update('snapshot.maxTokens', 500, vscode.ConfigurationTarget.Global);
    try {
      const cut = resultText(await invoke('browser_snapshot', {}));
      assert.match(cut, /\[Cut by the 500-token budget after line \d+ of \d+; .*Read on: browser_snapshot with offset=\d+/, cut.slice(-400));
      assert.doesNotMatch(cut, /Paragraph 399\b/);
    } finally {
      await config.update('snapshot.maxTokens', undefined, vscode.ConfigurationTarget.Global);
    }
    const first = resultText(await invoke('browser_snapshot', {}));
    assert.doesNotMatch(first, /\[Cut by/, 'back at the default budget nothing is cut');
    assert.match(first, /\[Page text folded after line \d+: .*Read on: browser_snapshot with offset=\d+/, 'the long text is folded by default');
    assert.doesNotMatch(first, /Paragraph 399\b/);
  });

  it('browserAgent.snapshot.foldTextAfter sets where a long page\'s text folds; 0 shows it whole', async () => {
    await api();
    server ??= await startServer({});
    server.route('/long', `<!doctype html><title>Long</title>${Array.from({ length: 400 }, (_, i) => `<p>Paragraph ${i} of a long page, with a few more words.</p>`).join('')}`);
    await invoke('browser_navigate', { url: `${server.origin}/long` });
    const foldAt = (text: string) => Number(/\[Page text folded after line (\d+):/.exec(text)?.[1] ?? -1);
    const byDefault = foldAt(resultText(await invoke('browser_snapshot', {})));
    assert.ok(byDefault > 100, `folds after the first ~3,000 tokens (line ${byDefault})`);
    const config = vscode.workspace.getConfiguration('browserAgent');
    try {
      await config.update('snapshot.foldTextAfter', 600, vscode.ConfigurationTarget.Global);
      const early = foldAt(resultText(await invoke('browser_snapshot', {})));
      assert.ok(early > 0 && early < byDefault / 2, `folds earlier: line ${early} against ${byDefault}`);
      await config.update('snapshot.foldTextAfter', 0, vscode.ConfigurationTarget.Global);
      const whole = resultText(await invoke('browser_snapshot', {}));
      assert.match(whole, /Paragraph 399\b/, 'never folded: the page is whole');
      assert.doesNotMatch(whole, /folded|\[Cut by/);
    } finally {
      await config.update('snapshot.foldTextAfter', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
