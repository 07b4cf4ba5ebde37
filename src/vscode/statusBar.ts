import * as vscode from 'vscode';
import type { SessionManager, SessionStatus } from '../session/manager';
import { FAILURE_SHOWN_MS, statusText } from './statusText';

/** Shows the session state; clicking it offers the session commands. */
export function createStatusBar(sessions: SessionManager): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('browserAgent.session', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Browser Agent';
  item.command = 'browserAgent.sessionMenu';
  let aging: NodeJS.Timeout | undefined;
  const show = (s: SessionStatus, stale: boolean) => {
    const { text, tooltip } = statusText(s, stale);
    item.text = text;
    item.tooltip = tooltip;
  };
  // A failed launch or attach is news for a minute, then no longer: the bar stops saying "could not attach".
  const update = (s: SessionStatus) => {
    clearTimeout(aging);
    show(s, false);
    if (s.state === 'disconnected' && s.failed) aging = setTimeout(() => sessions.status.state === 'disconnected' && show(sessions.status, true), FAILURE_SHOWN_MS);
  };
  update(sessions.status);
  sessions.on('status', update);
  item.show();
  return new vscode.Disposable(() => {
    clearTimeout(aging);
    sessions.off('status', update);
    item.dispose();
  });
}
