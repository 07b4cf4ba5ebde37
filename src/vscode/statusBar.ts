import * as vscode from 'vscode';
import type { SessionManager, SessionStatus } from '../session/manager';

export function statusText(s: SessionStatus): { text: string; tooltip: string } {
  switch (s.state) {
    case 'none':
      return { text: '$(globe) Browser: none', tooltip: 'Browser Agent: no browser. Click to launch or attach.' };
    case 'starting':
      return { text: `$(sync~spin) Browser: ${s.kind === 'launched' ? 'launching' : 'attaching'}…`, tooltip: 'Browser Agent is starting a session.' };
    case 'connected': {
      const title = s.tabTitle || s.tabUrl || 'about:blank';
      const short = title.length > 30 ? `${title.slice(0, 29)}…` : title;
      return {
        text: `$(globe) ${s.kind}${s.headless ? ' (headless)' : ''}: ${short}`,
        tooltip: `Browser Agent: ${s.kind} browser${s.headless ? ', headless' : ''}, ${s.tabs} tab(s)\nActive: ${s.tabTitle} — ${s.tabUrl}\nClick for session commands.`,
      };
    }
    case 'disconnected':
      return { text: '$(warning) Browser: disconnected', tooltip: `Browser Agent: ${s.reason}. Click to launch or attach.` };
  }
}

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
