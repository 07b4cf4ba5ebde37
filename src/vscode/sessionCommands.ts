import * as vscode from 'vscode';
import { errorMessage, isAgentError } from '../errors';
import { discoverBrowsers } from '../session/endpoints';
import type { SessionManager } from '../session/manager';

async function reportFailure(what: string, e: unknown) {
  const hint = isAgentError(e) && e.hint ? `\n\n${e.hint}` : '';
  const choice = await vscode.window.showErrorMessage(`Browser Agent: ${what} failed: ${errorMessage(e)}`, { detail: hint.trim() || undefined }, 'Show Log');
  if (choice === 'Show Log') void vscode.commands.executeCommand('browserAgent.showLog');
}

export function registerSessionCommands(sessions: SessionManager, channel: vscode.LogOutputChannel): vscode.Disposable[] {
  const launch = () =>
    vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Browser Agent: launching browser…' }, async () => {
      try {
        await sessions.launch();
      } catch (e) {
        await reportFailure('Launch', e);
      }
    });

  const attach = async (endpointArg?: string) => {
    let endpoint = typeof endpointArg === 'string' ? endpointArg : undefined;
    if (!endpoint) {
      const found = await discoverBrowsers();
      type Item = vscode.QuickPickItem & { endpoint?: string };
      const items: Item[] = [
        ...found.map((b) => ({ label: `$(globe) ${b.label}`, description: b.wsEndpoint, detail: b.profileDir, endpoint: b.wsEndpoint })),
        { label: '$(edit) Enter an endpoint…', detail: 'http://host:port, host:port, or a ws://…/devtools/browser/… URL (remote fleets too)' },
      ];
      const pick = await vscode.window.showQuickPick(items, {
        title: 'Attach to Browser',
        placeHolder: found.length ? 'Pick a running browser' : 'No browser with remote debugging found; enter an endpoint',
      });
      if (!pick) return;
      endpoint =
        pick.endpoint ??
        (await vscode.window.showInputBox({
          title: 'Attach to Browser',
          prompt: 'DevTools endpoint',
          placeHolder: 'http://127.0.0.1:9222',
          value: vscode.workspace.getConfiguration('browserAgent').get<string>('connection.endpoint', ''),
          ignoreFocusOut: true,
        }));
      if (!endpoint) return;
    }
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Browser Agent: attaching to ${endpoint}…` }, async () => {
      try {
        await sessions.attach(endpoint!);
      } catch (e) {
        await reportFailure('Attach', e);
      }
    });
  };

  const close = async () => {
    await sessions.close();
  };

  const menu = async () => {
    const connected = sessions.status.state === 'connected';
    const items: (vscode.QuickPickItem & { command: string })[] = [
      { label: '$(play) Launch Browser', command: 'browserAgent.launchBrowser' },
      { label: '$(plug) Attach to Browser…', command: 'browserAgent.attachBrowser' },
      ...(connected ? [{ label: '$(close) Close Browser', command: 'browserAgent.closeBrowser' }] : []),
      { label: '$(output) Show Log', command: 'browserAgent.showLog' },
    ];
    const pick = await vscode.window.showQuickPick(items, { title: 'Browser Agent' });
    if (pick) await vscode.commands.executeCommand(pick.command);
  };

  return [
    vscode.commands.registerCommand('browserAgent.launchBrowser', launch),
    vscode.commands.registerCommand('browserAgent.attachBrowser', attach),
    vscode.commands.registerCommand('browserAgent.closeBrowser', close),
    vscode.commands.registerCommand('browserAgent.showLog', () => channel.show()),
    vscode.commands.registerCommand('browserAgent.sessionMenu', menu),
  ];
}
