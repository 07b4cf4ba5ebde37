import * as vscode from 'vscode';
import { daemonControl } from '../daemon/client';
import { describeSession } from '../daemon/present';
import type { SessionInfo } from '../daemon/protocol';
import { errorMessage } from '../base/errors';
import type { SessionManager } from '../session/manager';

class SessionItem extends vscode.TreeItem {
  constructor(
    readonly info: SessionInfo,
    ownId: string | undefined,
  ) {
    const d = describeSession(info, Date.now(), ownId);
    super(d.label, vscode.TreeItemCollapsibleState.None);
    this.id = info.id;
    this.description = d.description;
    this.tooltip = d.tooltip;
    this.iconPath = new vscode.ThemeIcon(info.id === ownId ? 'window' : info.client.startsWith('MCP') ? 'plug' : 'globe');
    this.contextValue = 'browserAgent.daemonSession';
  }
}

/**
 * The "Sessions" view: every client of the per-user session daemon (this window, other windows,
 * MCP clients), with its tab and last activity, and buttons to bring its tab to front or end it.
 * Polls the daemon while visible; shows nothing when no daemon runs.
 */
export function registerSessionsView(sessions: SessionManager): vscode.Disposable[] {
  const changed = new vscode.EventEmitter<void>();
  let items: SessionItem[] = [];
  const provider: vscode.TreeDataProvider<SessionItem> = {
    onDidChangeTreeData: changed.event,
    getTreeItem: (i) => i,
    getChildren: async () => {
      try {
        const st = await daemonControl('status');
        items = st.sessions.map((s) => new SessionItem(s, sessions.current?.sharedSessionId));
      } catch {
        items = []; // no daemon running: the welcome text explains
      }
      void vscode.commands.executeCommand('setContext', 'browserAgent.daemonRunning', items.length > 0);
      return items;
    },
  };
  const view = vscode.window.createTreeView('browserAgent.sessions', { treeDataProvider: provider });
  const refresh = () => changed.fire();
  let timer: NodeJS.Timeout | undefined;
  const poll = () => {
    clearInterval(timer);
    timer = view.visible ? setInterval(refresh, 3000) : undefined;
  };
  poll();
  const run = (what: string, fn: () => Promise<unknown>) =>
    fn().then(refresh, (e) => void vscode.window.showErrorMessage(`Browser Agent: ${what} failed: ${errorMessage(e)}`));
  sessions.on('status', refresh);
  return [
    view,
    changed,
    view.onDidChangeVisibility(poll),
    new vscode.Disposable(() => sessions.off('status', refresh)),
    new vscode.Disposable(() => clearInterval(timer)),
    vscode.commands.registerCommand('browserAgent.sessions.refresh', refresh),
    vscode.commands.registerCommand('browserAgent.sessions.focus', (item?: SessionItem) => item && run('Focus', () => daemonControl('focus', { session: item.info.id }))),
    vscode.commands.registerCommand('browserAgent.sessions.end', async (item?: SessionItem) => {
      if (!item) return;
      const own = item.info.id === sessions.current?.sharedSessionId;
      const ok = await vscode.window.showWarningMessage(`End the session of ${item.info.client}?`, { modal: true, detail: `Its tabs are closed (in a browser the daemon launched) and its next call starts a new session.${own ? ' This is this window’s own session.' : ''}` }, 'End Session');
      if (ok) await run('End session', () => daemonControl('endSession', { session: item.info.id }));
    }),
  ];
}
