import * as vscode from 'vscode';
import { errorMessage } from '../base/errors';
import { discoverBrowsers } from '../session/endpoints';
import type { SessionManager, SessionStatus } from '../session/manager';
import { failureText, type FixAction } from './failureText';
import { sessionMenu } from './sessionMenu';
import { pairChromeExtension, relayAttachItem } from './pairChrome';
import { RELAY_ENDPOINT } from '../session/relayProtocol';

export const REPLACE = 'Replace';
export const KEEP = 'Keep Current Browser';

/** Runs a fix-it button: from a failure notification or a chat card. */
export async function runFixAction(action: FixAction): Promise<void> {
  if (action.label === 'Open Settings') await vscode.commands.executeCommand('workbench.action.openSettings', action.query);
  else if (action.label === 'How to Attach') await vscode.commands.executeCommand('browserAgent.howToAttach');
  else await vscode.commands.executeCommand('browserAgent.showLog');
}

/** Shows a failure where it is seen: the message, the fix-it hint, and buttons that help. */
async function reportFailure(what: 'Launch' | 'Attach', e: unknown): Promise<void> {
  const { message, actions } = failureText(what, e);
  const choice = await vscode.window.showErrorMessage(message, ...actions.map((a) => a.label));
  const action = actions.find((a) => a.label === choice);
  if (action) await runFixAction(action);
}

function describe(s: SessionStatus): string {
  if (s.state === 'starting') return `Browser Agent is ${s.kind === 'launched' ? 'launching' : 'attaching to'} a browser.`;
  if (s.state !== 'connected') return '';
  return `Browser Agent is connected to ${s.kind === 'launched' ? 'a browser it launched' : 'a browser it attached to'} showing "${s.tabTitle || s.tabUrl || 'about:blank'}".`;
}

/**
 * Asks before a running browser is replaced; the running one stays until the new one is connected.
 * True when there is none, or the person chose Replace. VS Code focuses the first button that is not
 * the close affordance, so "Keep Current Browser" comes first: Enter keeps it.
 */
async function mayReplace(sessions: SessionManager, next: string): Promise<boolean> {
  const s = sessions.status;
  if (s.state !== 'connected' && s.state !== 'starting') return true;
  const closes = s.state === 'connected' && s.kind === 'attached' ? 'detaches from it (it keeps running)' : 'closes it';
  const pick = await vscode.window.showWarningMessage(
    'Replace the running browser?',
    { modal: true, detail: `${describe(s)}\n\n${next} ${closes} once the new browser is connected. If that fails, the running browser is kept.` },
    { title: KEEP },
    { title: REPLACE },
    { title: 'Cancel', isCloseAffordance: true },
  );
  return pick?.title === REPLACE;
}

/**
 * Runs a start-up with a progress notification that ends with the attempt (success or failure);
 * the failure is shown after it, so nothing keeps saying "launching…".
 */
async function withStartProgress(title: string, what: 'Launch' | 'Attach', run: () => Promise<unknown>): Promise<boolean> {
  let failure: unknown;
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, async () => {
    try {
      await run();
    } catch (e) {
      failure = e ?? new Error('unknown error');
    }
  });
  if (failure === undefined) return true;
  void reportFailure(what, failure);
  return false;
}

type AttachItem = vscode.QuickPickItem & { endpoint?: string; manual?: boolean };

/** The attach picker: running browsers, and whatever the person types becomes an "Attach to …" entry. */
async function pickEndpoint(): Promise<string | undefined> {
  const qp = vscode.window.createQuickPick<AttachItem>();
  qp.title = 'Attach to Browser';
  qp.placeholder = 'Pick a running browser, or type an endpoint (http://127.0.0.1:9222, host:port, ws://…)';
  qp.busy = true;
  qp.matchOnDescription = true;
  let found: AttachItem[] = [];
  const manual: AttachItem = { label: '$(edit) Enter an endpoint…', detail: 'http://host:port, host:port, or a ws://…/devtools/browser/… URL (remote fleets too)', manual: true, alwaysShow: true };
  const render = () => {
    const v = qp.value.trim();
    const typed: AttachItem[] = v ? [{ label: `$(plug) Attach to ${v}`, description: 'the endpoint you typed', endpoint: v, alwaysShow: true }] : [];
    const relay = relayAttachItem();
    qp.items = [...typed, ...(relay ? [relay] : []), ...found, ...(v ? [] : [manual])];
  };
  render();
  qp.onDidChangeValue(render);
  void discoverBrowsers().then(
    (list) => {
      found = list.map((b) => ({ label: `$(globe) ${b.label}`, description: b.wsEndpoint, detail: b.profileDir, endpoint: b.wsEndpoint }));
      if (!found.length) qp.placeholder = 'No browser with remote debugging found here: type an endpoint (http://127.0.0.1:9222, host:port, ws://…)';
      qp.busy = false;
      render();
    },
    () => (qp.busy = false),
  );
  const picked = await new Promise<AttachItem | undefined>((resolve) => {
    qp.onDidAccept(() => resolve(qp.selectedItems[0]));
    qp.onDidHide(() => resolve(undefined));
    qp.show();
  });
  qp.dispose();
  if (!picked) return undefined;
  if (picked.endpoint) return picked.endpoint;
  return vscode.window.showInputBox({
    title: 'Attach to Browser',
    prompt: 'DevTools endpoint of the browser',
    placeHolder: 'http://127.0.0.1:9222',
    value: vscode.workspace.getConfiguration('browserAgent').get<string>('connection.endpoint', ''),
    ignoreFocusOut: true,
  });
}

export function registerSessionCommands(sessions: SessionManager, channel: vscode.LogOutputChannel): vscode.Disposable[] {
  const launch = async () => {
    if (!(await mayReplace(sessions, 'Launching a new browser'))) return;
    await withStartProgress('Browser Agent: launching browser…', 'Launch', () => sessions.launch());
  };

  const attach = async (endpointArg?: string) => {
    const endpoint = typeof endpointArg === 'string' && endpointArg ? endpointArg : await pickEndpoint();
    if (!endpoint) return;
    const where = endpoint === RELAY_ENDPOINT ? 'your Chrome (Browser Agent extension)' : endpoint;
    if (!(await mayReplace(sessions, `Attaching to ${where}`))) return;
    await withStartProgress(`Browser Agent: attaching to ${where}…`, 'Attach', () => sessions.attach(endpoint));
  };

  const close = async () => {
    const was = sessions.status;
    await sessions.close();
    if (was.state === 'none') void vscode.window.showInformationMessage('Browser Agent: no browser is running.');
  };

  // Agents work in background tabs; the person brings the agent's tab to front when they want to see it.
  const bringToFront = async () => {
    const s = sessions.current;
    if (!s) return void vscode.window.showInformationMessage('Browser Agent: no browser is running.');
    await s.bringToFront().catch((e) => void vscode.window.showErrorMessage(`Browser Agent: Bring to Front failed: ${errorMessage(e)}`));
  };

  const menu = async () => {
    const { title, items } = sessionMenu(sessions.status);
    const pick = await vscode.window.showQuickPick(items, { title: `Browser Agent — ${title}` });
    if (pick) await vscode.commands.executeCommand(pick.command);
  };

  return [
    vscode.commands.registerCommand('browserAgent.launchBrowser', launch),
    vscode.commands.registerCommand('browserAgent.attachBrowser', attach),
    vscode.commands.registerCommand('browserAgent.closeBrowser', close),
    vscode.commands.registerCommand('browserAgent.bringToFront', bringToFront),
    vscode.commands.registerCommand('browserAgent.showLog', () => channel.show()),
    vscode.commands.registerCommand('browserAgent.sessionMenu', menu),
    vscode.commands.registerCommand('browserAgent.pairChromeExtension', () => pairChromeExtension()),
  ];
}
