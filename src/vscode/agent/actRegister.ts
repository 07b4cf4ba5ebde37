import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ActionCache } from '../../agent/act/cache';

/**
 * The action cache of this workspace (VS Code's per-workspace storage; the global storage when no
 * folder is open), and its two commands: show it (the JSON file) and clear it.
 */
export function registerActionCache(context: vscode.ExtensionContext): { cache(): ActionCache } {
  const dir = (context.storageUri ?? context.globalStorageUri).fsPath;
  const cache = new ActionCache(join(dir, 'action-cache.json'));
  context.subscriptions.push(
    vscode.commands.registerCommand('browserAgent.actionCache.show', async () => {
      const n = (await cache.list()).length;
      if (!n && !existsSync(cache.file)) return void vscode.window.showInformationMessage('Browser Agent: the action cache is empty (act fills it as the agent works).');
      await vscode.window.showTextDocument(vscode.Uri.file(cache.file), { preview: true });
    }),
    vscode.commands.registerCommand('browserAgent.actionCache.clear', async () => {
      const n = await cache.clear();
      void vscode.window.showInformationMessage(`Browser Agent: action cache cleared (${n} entr${n === 1 ? 'y' : 'ies'}).`);
      return n;
    }),
  );
  return { cache: () => cache };
}
