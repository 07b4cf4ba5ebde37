import * as vscode from 'vscode';
import type { SessionManager, SessionStatus } from '../session/manager';
import { statusText } from './statusText';

/** Shows the session state; clicking it offers the session commands. */
export function createStatusBar(sessions: SessionManager): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('browserAgent.session', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Browser Agent';
  item.command = 'browserAgent.sessionMenu';
  const update = (s: SessionStatus) => {
    const { text, tooltip } = statusText(s);
    item.text = text;
    item.tooltip = tooltip;
  };
  update(sessions.status);
  sessions.on('status', update);
  item.show();
  return new vscode.Disposable(() => {
    sessions.off('status', update);
    item.dispose();
  });
}
