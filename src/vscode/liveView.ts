import * as vscode from 'vscode';
import { Screencast, type Box } from './chat/screencast';
import type { SessionManager, SessionStatus } from '../session/manager';
import { liveState } from './liveState';
import { liveViewHtml } from './liveViewHtml';
import { ignore } from '../base/ignore';

/**
 * "Open Live View": the active tab's screencast in an editor tab, with its URL and the session's
 * state, and the outline of the element a step acts on, so the chat panel's conversation keeps its
 * room. One panel; the command reveals it. Its script is media/liveView.ts.
 */
export class LiveViewPanel implements vscode.Disposable {
  private panel?: vscode.WebviewPanel;
  private readonly screencast = new Screencast((m) => void this.panel?.webview.postMessage(m));
  private readonly onStatus = (s: SessionStatus) => this.update(s);

  /** Fires when the person closes the tab (not when the window goes): a task then stops opening it by itself. */
  private readonly closed = new vscode.EventEmitter<void>();
  readonly onDidClose = this.closed.event;
  private disposing = false;

  constructor(
    private readonly sessions: SessionManager,
    private readonly extensionUri: vscode.Uri,
  ) {}

  get isOpen(): boolean {
    return !!this.panel;
  }

  /** `preserveFocus`: opened for the person to watch (a task began), not asked for: the focus stays in the chat. */
  show(preserveFocus = false): void {
    if (this.panel) return this.panel.reveal(undefined, preserveFocus);
    const media = vscode.Uri.joinPath(this.extensionUri, 'dist', 'media');
    const panel = (this.panel = vscode.window.createWebviewPanel('browserAgent.liveView', 'Browser: Live View', { viewColumn: vscode.ViewColumn.Beside, preserveFocus }, { enableScripts: true, retainContextWhenHidden: false, localResourceRoots: [media] }));
    panel.iconPath = new vscode.ThemeIcon('eye');
    panel.webview.html = liveViewHtml(panel.webview.cspSource, panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'liveView.js')).toString());
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

  /** The element a step acts on, outlined over the picture (no box: the outline goes), as the chat panel's live view does. */
  highlight(box?: Box, label?: string): void {
    void this.panel?.webview.postMessage(box ? { type: 'highlight', box, label } : { type: 'highlight' });
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
