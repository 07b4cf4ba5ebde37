import * as vscode from 'vscode';
import type { SessionManager } from '../session/manager';
import type { RunHooks } from '../tools/runner';
import type { ToolDefinition, ToolResult } from '../tools/types';
import type { SafetyApi } from './safety';
import { createToolContext } from './toolContext';

/**
 * `browserAgent.runTool` (name?, input?): runs a registry tool through the same gate as Copilot,
 * without prepareInvocation, so `confirm` shows the modal. Handy for people and for the e2e suite.
 */
export function registerRunToolCommand(sessions: SessionManager, safety: SafetyApi, tools: readonly ToolDefinition[], channel: vscode.LogOutputChannel, onStep?: RunHooks['onStep']): vscode.Disposable {
  return vscode.commands.registerCommand('browserAgent.runTool', async (name?: string, input?: unknown): Promise<ToolResult | undefined> => {
    let tool = tools.find((t) => t.name === name);
    if (!tool) {
      const pick = await vscode.window.showQuickPick(tools.map((t) => ({ label: t.name, description: t.title, tool: t })), { title: 'Run Browser Tool' });
      if (!pick) return undefined;
      tool = pick.tool;
    }
    if (input === undefined) {
      const raw = await vscode.window.showInputBox({ title: `${tool.name} arguments (JSON)`, value: '{}' });
      if (raw === undefined) return undefined;
      try {
        input = JSON.parse(raw);
      } catch {
        void vscode.window.showErrorMessage('Arguments must be JSON.');
        return undefined;
      }
    }
    const result = await safety.run(tool, input, createToolContext(sessions), onStep);
    channel.info(`${tool.name}: ${result.content.map((p) => (p.type === 'text' ? p.text : `[${p.mimeType} image]`)).join('\n')}`);
    return result;
  });
}
