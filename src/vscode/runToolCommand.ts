import * as vscode from 'vscode';
import type { SessionManager } from '../session/manager';
import type { ToolPipeline } from '../safety/pipeline';
import type { ToolDefinition, ToolResult } from '../contract/types';
import { inputSchemaOf } from '../contract/inputSchema';
import { argumentHints, resultText } from './runToolText';
import { createToolContext } from './toolContext';

/**
 * `browserAgent.runTool` (name?, input?): runs a registry tool through the same gate as Copilot,
 * without prepareInvocation, so `confirm` shows the modal. Handy for people and for the e2e suite.
 */
export function registerRunToolCommand(sessions: SessionManager, pipeline: ToolPipeline, tools: readonly ToolDefinition[], channel: vscode.LogOutputChannel): vscode.Disposable {
  const results = readOnlyResults();
  const command = vscode.commands.registerCommand('browserAgent.runTool', async (name?: string, input?: unknown): Promise<ToolResult | undefined> => {
    let tool = tools.find((t) => t.name === name);
    if (!tool) {
      const pick = await vscode.window.showQuickPick(
        tools.map((t) => ({ label: t.title, description: t.name, detail: t.description.split(/(?<=\.)\s/)[0], tool: t })),
        { title: 'Run Browser Tool', matchOnDescription: true, matchOnDetail: true, placeHolder: 'Pick a tool; it runs through the same safety checks as the agent' },
      );
      if (!pick) return undefined;
      tool = pick.tool;
    }
    const interactive = input === undefined;
    if (interactive) {
      const hints = argumentHints(inputSchemaOf(tool));
      const raw = await vscode.window.showInputBox({
        title: `${tool.title} (${tool.name}): arguments`,
        prompt: hints.prompt,
        value: hints.value,
        ignoreFocusOut: true,
        validateInput: (v) => {
          try {
            JSON.parse(v);
            return undefined;
          } catch (e) {
            return `Not JSON yet: ${(e as Error).message}`;
          }
        },
      });
      if (raw === undefined) return undefined;
      input = JSON.parse(raw);
    }
    const result = await pipeline.run(tool, input, createToolContext(sessions));
    const { headline, full, ok } = resultText(tool.name, result);
    channel.info(`${tool.name}: ${full}`);
    // A person who ran it sees what came back; calls from other extensions (with arguments) get the result only.
    if (interactive) {
      const show = ok ? vscode.window.showInformationMessage : vscode.window.showErrorMessage;
      void show(`Browser Agent: ${headline}`, 'Show Full Result').then(async (b) => {
        if (b) await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(results.add(tool.name, full)), { preview: true });
      });
    }
    return result;
  });
  return vscode.Disposable.from(command, results);
}

const RESULT_SCHEME = 'browser-agent-result';
/** Results kept for reopening their tabs; older ones are dropped. */
const KEEP_RESULTS = 20;

/**
 * Full results open as read-only documents: an untitled one would ask "Save changes?" when the
 * person closes its tab, for text they never wrote.
 */
function readOnlyResults(): vscode.Disposable & { add(toolName: string, text: string): vscode.Uri } {
  const texts = new Map<string, string>();
  let n = 0;
  const provider = vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, { provideTextDocumentContent: (uri) => texts.get(uri.path) ?? '(this result is no longer kept)' });
  return {
    add(toolName, text) {
      const uri = vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${toolName} result ${++n}.md` });
      texts.set(uri.path, text);
      for (const k of texts.keys()) if (texts.size > KEEP_RESULTS) texts.delete(k);
      return uri;
    },
    dispose: () => provider.dispose(),
  };
}
