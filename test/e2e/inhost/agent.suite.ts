import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { BrowserAgentApi } from '../../../src/vscode/extension';
import { startAnthropicServer, type LlmServer } from '../../helpers/llmServers';
import { startServer, type TestServer } from '../../helpers/servers';

/**
 * In the real extension host (loaded by the e2e harness): the chat panel's command opens the view,
 * a task runs against a scripted Anthropic-compatible model on 127.0.0.1 through the real SDK and
 * the real browser, and the panel's transcript gets its step cards and result. The UI-mode part
 * (palette, webview DOM, the safety modal, screenshots) is driven by the harness's browser driver.
 */
describe('e2e: chat panel and agent loop in the extension host', function () {
  this.timeout(120_000);
  let api: BrowserAgentApi;
  let llm: LlmServer;
  let site: TestServer;
  const config = () => vscode.workspace.getConfiguration('browserAgent.agent');

  before(async () => {
    const ext = vscode.extensions.getExtension<BrowserAgentApi>('browser-agent.browser-agent');
    assert.ok(ext, 'extension installed');
    api = await ext.activate();
    site = await startServer({ '/': '<title>Hello</title><h1>Hello from the test page</h1>' });
    llm = await startAnthropicServer((r) => {
      if (r.index === 0) return { text: 'Opening the page.', toolCalls: [{ name: 'browser_navigate', input: { url: site.url } }] };
      return { toolCalls: [{ name: 'finish', input: { success: true, summary: 'Opened the test page.' } }] };
    });
    await config().update('provider', 'anthropic', vscode.ConfigurationTarget.Global);
    await config().update('anthropic.baseURL', llm.baseURL, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await config().update('provider', undefined, vscode.ConfigurationTarget.Global);
    await config().update('anthropic.baseURL', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('browserAgent.closeBrowser');
    await llm?.close();
    await site?.close();
  });

  it('Open Chat focuses the view; a task runs to finish with a card per step', async function () {
    const declared = vscode.extensions.getExtension('browser-agent.browser-agent')!.packageJSON.contributes.languageModelTools ?? [];
    assert.ok(declared.some((t: { name: string }) => t.name === 'browser_navigate'), 'browser_navigate is declared');
    await vscode.commands.executeCommand('browserAgent.openChat');
    const outcome = (await vscode.commands.executeCommand('browserAgent.agent.run', 'Open the test page')) as { status: string } | undefined;
    assert.equal(outcome?.status, 'success');
    const rec = api.agent.chat.current!;
    const tools = rec.entries.flatMap((e) => (e.kind === 'card' ? [e.card.tool] : []));
    assert.ok(tools.includes('browser_navigate') && tools.at(-1) === 'finish', tools.join(','));
    assert.equal(rec.entries.at(-1)?.kind, 'result');
    assert.equal(llm.requests.length, 2);
  });

  // Needs the fixture extension test/e2e/fixtures/lm-test-provider installed next to ours.
  it('vscode-lm: a model from registerLanguageModelChatProvider drives the loop with tool call/result parts', async function () {
    const models = await vscode.lm.selectChatModels({ vendor: 'browser-agent-test' });
    assert.ok(models.length, 'a model from vendor browser-agent-test (test/e2e/fixtures/lm-test-provider, installed by run.mjs)');
    await config().update('provider', 'vscode-lm', vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration().update('browserAgent.agent.VSCodeLMModel', 'scripted-tools', vscode.ConfigurationTarget.Global);
    try {
      const outcome = (await vscode.commands.executeCommand('browserAgent.agent.run', 'Plan and finish')) as { status: string; summary: string } | undefined;
      assert.equal(outcome?.status, 'success', outcome?.summary);
      const reqs = (await vscode.commands.executeCommand('browserAgentTest.lmRequests')) as Array<{ messages: Array<{ parts: any[] }>; tools: string[] }>;
      assert.ok(reqs[0].tools.includes('finish') && reqs[0].tools.includes('think'));
      const second = reqs[1].messages.flatMap((m) => m.parts);
      assert.ok(second.some((p) => p.call === 'think' && p.callId === 'call-1'), 'the tool call went back as a LanguageModelToolCallPart');
      assert.ok(second.some((p) => p.result === 'call-1'), 'its result as a LanguageModelToolResultPart');
    } finally {
      await config().update('provider', undefined, vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration().update('browserAgent.agent.VSCodeLMModel', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
