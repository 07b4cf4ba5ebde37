import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { Screencast } from './chat/screencast';
import type { SessionManager, SessionStatus } from '../session/manager';
import { liveState } from './liveState';
import { ignore } from '../base/ignore';

/**
 * "Open Live View": the active tab's screencast in an editor tab, with its URL and the session's
 * state, so the chat panel's conversation keeps its room. One panel; the command reveals it.
 */
export class LiveViewPanel implements vscode.Disposable {
  private panel?: vscode.WebviewPanel;
  private readonly screencast = new Screencast((m) => void this.panel?.webview.postMessage(m));
  private readonly onStatus = (s: SessionStatus) => this.update(s);

  /** Fires when the person closes the tab (not when the window goes): a task then stops opening it by itself. */
  private readonly closed = new vscode.EventEmitter<void>();
  readonly onDidClose = this.closed.event;
  private disposing = false;

  constructor(private readonly sessions: SessionManager) {}

  get isOpen(): boolean {
    return !!this.panel;
  }

  /** `preserveFocus`: opened for the person to watch (a task began), not asked for: the focus stays in the chat. */
  show(preserveFocus = false): void {
    if (this.panel) return this.panel.reveal(undefined, preserveFocus);
    const panel = (this.panel = vscode.window.createWebviewPanel('browserAgent.liveView', 'Browser: Live View', { viewColumn: vscode.ViewColumn.Beside, preserveFocus }, { enableScripts: true, retainContextWhenHidden: false }));
    panel.iconPath = new vscode.ThemeIcon('eye');
    panel.webview.html = html(panel.webview.cspSource);
    this.sessions.on('status', this.onStatus);
    panel.onDidChangeViewState(() => (panel.visible ? this.update(this.sessions.status) : void this.screencast.stop()));
    panel.onDidDispose(() => {
      this.sessions.off('status', this.onStatus);
      this.panel = undefined;
      if (!this.disposing) this.closed.fire();
      void this.screencast.stop();
    });
    this.update(this.sessions.status);
  }

  private update(s: SessionStatus): void {
    const panel = this.panel;
    if (!panel) return;
    const state = liveState(s);
    void panel.webview.postMessage({ type: 'state', ...state });
    panel.title = state.live ? `Browser: ${s.state === 'connected' ? s.tabTitle || s.tabUrl || 'about:blank' : 'Live View'}` : 'Browser: Live View';
    const browser = this.sessions.current;
    if (!state.live || !browser || !panel.visible) return void this.screencast.stop();
    void browser.activeTab().then((tab) => this.screencast.follow(tab)).catch((e) => ignore(e, 'the live view follows the next tab change'));
  }

  dispose(): void {
    this.disposing = true;
    this.panel?.dispose();
    this.closed.dispose();
  }
}

function html(csp: string): string {
  const nonce = randomBytes(16).toString('base64');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${csp} data:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'">
<style nonce="${nonce}">
body{margin:0;padding:8px;color:var(--vscode-foreground);font-family:var(--vscode-font-family);font-size:var(--vscode-font-size)}
#bar{display:flex;gap:8px;align-items:center;margin-bottom:6px}
#state{font-size:11px;padding:1px 6px;border-radius:8px;background:var(--vscode-badge-background);color:var(--vscode-badge-foreground);white-space:nowrap}
#url{font-family:var(--vscode-editor-font-family);overflow:hidden;text-overflow:ellipsis;white-space:nowrap;color:var(--vscode-textLink-foreground)}
img{display:block;max-width:100%;border:1px solid var(--vscode-panel-border)}
img.stale{opacity:.35;filter:grayscale(1)}
#empty{color:var(--vscode-descriptionForeground);font-style:italic}
</style></head><body>
<div id="bar"><span id="state" role="status">…</span><span id="url"></span></div>
<div id="empty"></div><img id="live-frame" alt="Live view of the browser page" hidden>
<script nonce="${nonce}">
const img = document.getElementById('live-frame'), state = document.getElementById('state'), url = document.getElementById('url'), empty = document.getElementById('empty');
window.addEventListener('message', (ev) => {
  const m = ev.data;
  if (m.type === 'frame') { img.src = 'data:image/jpeg;base64,' + m.data; img.hidden = false; img.classList.remove('stale'); empty.hidden = true; }
  if (m.type === 'state') {
    state.textContent = m.label; url.textContent = m.url || ''; url.title = m.url || '';
    if (!m.live) { img.classList.add('stale'); empty.textContent = m.note; empty.hidden = false; if (!img.src) img.hidden = true; }
  }
});
</script></body></html>`;
}
