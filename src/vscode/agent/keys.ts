import * as vscode from 'vscode';
import { SECRET_KEYS } from './factory';

/** API keys live in SecretStorage (the OS keychain), never in settings files. */
export async function promptForKey(secrets: vscode.SecretStorage, which: 'anthropic' | 'openai'): Promise<boolean> {
  const label = which === 'anthropic' ? 'Anthropic' : 'OpenAI-compatible';
  const value = await vscode.window.showInputBox({
    title: `Browser Agent: ${label} API key`,
    prompt: `Stored in VS Code's secret storage. Leave empty and press Enter to remove the saved key.`,
    password: true,
    ignoreFocusOut: true,
    placeHolder: which === 'anthropic' ? 'sk-ant-…' : 'sk-…',
  });
  if (value === undefined) return false;
  if (value.trim()) await secrets.store(SECRET_KEYS[which], value.trim());
  else await secrets.delete(SECRET_KEYS[which]);
  void vscode.window.showInformationMessage(value.trim() ? `${label} API key saved.` : `${label} API key removed.`);
  return true;
}
