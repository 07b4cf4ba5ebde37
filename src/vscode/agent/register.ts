import * as vscode from 'vscode';
import { registerActionCache } from './actRegister';
import { promptForKey } from './keys';
import { setUpModel } from './modelSetup';
import { ChatViewProvider, VIEW_ID, type ChatDeps } from '../chat/chatView';

export interface AgentApi {
  chat: ChatViewProvider;
}

/** The chat panel (activity-bar view), its commands and the API-key commands. */
export function registerAgent(context: vscode.ExtensionContext, deps: ChatDeps): AgentApi {
  const actions = registerActionCache(context);
  const chat = new ChatViewProvider(context, { actionCache: actions.cache, ...deps });
  context.subscriptions.push(
    chat,
    vscode.window.registerWebviewViewProvider(VIEW_ID, chat, { webviewOptions: { retainContextWhenHidden: true } }),
    vscode.commands.registerCommand('browserAgent.openChat', () => vscode.commands.executeCommand(`${VIEW_ID}.focus`)),
    vscode.commands.registerCommand('browserAgent.agent.stop', () => chat.stop()),
    vscode.commands.registerCommand('browserAgent.agent.run', async (task?: string) => {
      const text = task ?? (await vscode.window.showInputBox({ title: 'Browser Agent: Run Task', prompt: 'What should the agent do in the browser?' }));
      if (!text) return undefined;
      await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
      return chat.runTask(text);
    }),
    vscode.commands.registerCommand('browserAgent.setUpModel', async () => {
      const ready = await setUpModel(context.secrets);
      await chat.sendInit();
      return ready;
    }),
    vscode.commands.registerCommand('browserAgent.setAnthropicKey', () => promptForKey(context.secrets, 'anthropic')),
    vscode.commands.registerCommand('browserAgent.setOpenAIKey', () => promptForKey(context.secrets, 'openai')),
  );
  return { chat };
}
