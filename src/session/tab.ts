import { EventEmitter } from 'node:events';
import { keepDrawing } from './keepDrawing';
import type { Protocol } from 'devtools-protocol';
import { BrowserAgentError } from '../base/errors';
import { fenceInline } from '../base/untrusted';
import type { CdpConnection, CdpSession, Unsubscribe } from './cdp';
import { NO_SERVICE_WORKERS } from './autoAttach';
import { PageLog } from './pageLog';
import { ignore } from '../base/ignore';

export interface DialogInfo {
  type: Protocol.Page.DialogType;
  message: string;
  defaultPrompt?: string;
  url: string;
  /** The session the dialog belongs to (the page or an out-of-process iframe). */
  sessionId: string;
}

/** An out-of-process iframe attached through Target.setAutoAttach (flatten). */
export interface ChildFrameSession {
  targetId: string; // equals the iframe's frame id
  url: string;
  session: CdpSession;
  parentSessionId: string;
}

/**
 * One page target with its flattened CDP session, its out-of-process iframes, and the modal
 * state (JavaScript dialog) that later layers must respect.
 */
export class Tab extends EventEmitter {
  url: string;
  title: string;
  openerId?: string;
  dialog?: DialogInfo;
  crashed = false;
  closed = false;
  private _session?: CdpSession;
  private attaching?: Promise<CdpSession>;
  private readonly children = new Map<string, ChildFrameSession>();
  /** Every frame id this tab shows (main, same-process and out-of-process iframes): whose a download is. */
  private readonly frameIds = new Set<string>();
  private readonly subscriptions: Unsubscribe[] = [];
  /** Console messages and requests of the current document (browser_console_messages, browser_network_requests). */
  readonly log = new PageLog();

  constructor(
    private readonly connection: CdpConnection,
    readonly targetId: string,
    info: { url: string; title: string; openerId?: string },
    /**
     * Awaited before a child (frame, worker) paused at start is released: one release runs it for
     * every client, so the request guard's interception must be on first.
     */
    private readonly beforeRelease?: (targetId: string) => Promise<void>,
    /** What this tab's sessions auto-attach: the request guard decides whether that includes service workers. */
    private readonly childFilter: () => Protocol.Target.TargetFilter | undefined = () => NO_SERVICE_WORKERS,
  ) {
    super();
    this.url = info.url;
    this.title = info.title;
    this.openerId = info.openerId;
  }

  get attached(): boolean {
    return !!this._session;
  }

  /** The page session; attaches on first use so attaching to a browser with many tabs stays cheap. */
  async session(): Promise<CdpSession> {
    if (this.closed) {
      // Not the tab: the connection under it went (a call that began just as the session daemon exited).
      if (this.connection.closed) throw new BrowserAgentError('BROWSER_DISCONNECTED', this.connection.closeReason ?? 'The browser connection closed.', 'The browser will be relaunched or reattached on the next action.');
      throw new BrowserAgentError('TAB_CLOSED', `The tab "${this.title || this.url}" is closed.`, 'List tabs with browser_tabs and select another one.');
    }
    if (this._session) return this._session;
    this.attaching ??= this.attach().catch((e) => {
      this.attaching = undefined;
      throw e;
    });
    return this.attaching;
  }

  /** The out-of-process iframes currently attached, in attach order. */
  frameSessions(): ChildFrameSession[] {
    return [...this.children.values()];
  }

  frameSession(frameId: string): ChildFrameSession | undefined {
    return this.children.get(frameId);
  }

  /** True when the frame is this tab's page or one of its iframes (as far as an attached tab knows). */
  hasFrame(frameId: string): boolean {
    return frameId === this.targetId || this.children.has(frameId) || this.frameIds.has(frameId);
  }

  /** Frames that existed before Page.enable are not announced: read them from the tree once. */
  private readFrameTree(session: CdpSession) {
    const add = (t: Protocol.Page.FrameTree) => {
      this.frameIds.add(t.frame.id);
      for (const c of t.childFrames ?? []) add(c);
    };
    session.send('Page.getFrameTree').then(({ frameTree }) => add(frameTree), () => {});
  }

  /** Fails with DIALOG_OPEN when a JavaScript dialog blocks the page. */
  assertNoDialog(): void {
    if (this.dialog) {
      throw new BrowserAgentError('DIALOG_OPEN', `A ${this.dialog.type} dialog is open: ${fenceInline(this.dialog.message.slice(0, 200))}.`, 'Answer it with browser_handle_dialog (accept or dismiss) first.');
    }
  }

  private async attach(): Promise<CdpSession> {
    const { sessionId } = await this.connection.send('Target.attachToTarget', { targetId: this.targetId, flatten: true });
    const session = this.connection.session(sessionId);
    this.watchSession(session);
    await Promise.all([
      session.send('Page.enable'),
      session.send('Runtime.enable'),
      session.send('Network.enable', { maxTotalBufferSize: 1_000_000, maxResourceBufferSize: 500_000 }),
      session.send('Log.enable').catch((e) => ignore(e, 'console messages are a nicety; some targets lack the Log domain')),
      session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true, filter: this.childFilter() }),
      // Pages of a window without OS focus, or a background tab, still get focus and blur, so clicks into
      // fields and typing behave as for a person at that window. It also keeps a background tab visible
      // (visibilityState, animation frames, unthrottled timers, screenshots; with keepDrawing at full
      // rate; measured on Chromium 150): agent tabs live behind the person's tab without taking its focus.
      session.send('Emulation.setFocusEmulationEnabled', { enabled: true }).catch((e) => ignore(e, 'a browser without focus emulation still works')),
    ]);
    // Dialogs already open before we attached are re-announced by Page.enable; nothing else to do.
    this._session = session;
    void keepDrawing(this.connection, this.targetId).then((stop) => (this.closed ? stop() : this.subscriptions.push(stop)), () => undefined);
    this.readFrameTree(session);
    void this.refreshInfo(); // the page may have finished loading before Page.enable
    this.emit('attached', session);
    return session;
  }

  private watchSession(session: CdpSession, parent?: ChildFrameSession) {
    this.subscriptions.push(...this.log.watch(session, parent && (() => `in frame ${parent.url}`)));
    this.subscriptions.push(
      session.on('Page.javascriptDialogOpening', (p) => {
        this.dialog = { type: p.type, message: p.message, defaultPrompt: p.defaultPrompt, url: p.url, sessionId: session.id };
        this.emit('dialog', this.dialog);
      }),
      session.on('Page.javascriptDialogClosed', () => {
        if (this.dialog?.sessionId === session.id) this.dialog = undefined;
        this.emit('dialogClosed');
      }),
      session.on('Target.attachedToTarget', (p) => void this.onChildAttached(session, p)),
      session.on('Page.frameAttached', (p) => void this.frameIds.add(p.frameId)),
      // 'swap' moves a frame into another process: it is still ours.
      session.on('Page.frameDetached', (p) => p.reason === 'remove' && this.frameIds.delete(p.frameId)),
      session.on('Target.targetInfoChanged', (p) => {
        const child = this.children.get(p.targetInfo.targetId);
        if (child && p.targetInfo.url) child.url = p.targetInfo.url;
      }),
      session.on('Target.detachedFromTarget', (p) => {
        for (const [id, child] of this.children) if (child.session.id === p.sessionId) this.children.delete(id);
      }),
    );
    if (!parent) {
      this.subscriptions.push(
        session.on('Inspector.targetCrashed', () => {
          this.crashed = true;
          // The calls waiting on the page (a settle, a wait, a navigation's look) would each wait out their timeout.
          this.connection.rendererCrashed(session.id, (method) => new BrowserAgentError('PAGE_CRASHED', `The page crashed (its renderer process died) while ${method} ran.`, 'Open it again with browser_navigate (or browser_reload); the tab itself is still there.'));
          this.emit('crashed');
        }),
        session.on('Page.frameNavigated', (p) => {
          if (!p.frame.parentId) {
            this.url = p.frame.url + (p.frame.urlFragment ?? '');
            this.crashed = false;
            this.connection.rendererBack(session.id);
          }
        }),
        session.on('Inspector.targetReloadedAfterCrash', () => this.connection.rendererBack(session.id)),
        session.on('Page.navigatedWithinDocument', (p) => {
          if (p.frameId === this.targetId) this.url = p.url;
          void this.refreshInfo();
        }),
        // Target.targetInfoChanged does not reliably carry the final title; ask after each load.
        session.on('Page.domContentEventFired', () => void this.refreshInfo()),
        session.on('Page.loadEventFired', () => void this.refreshInfo()),
      );
    }
  }

  private async onChildAttached(parent: CdpSession, p: Protocol.Target.AttachedToTargetEvent) {
    const child = this.connection.session(p.sessionId);
    const info = p.targetInfo;
    try {
      if (info.type === 'iframe') {
        const frame: ChildFrameSession = { targetId: info.targetId, url: info.url, session: child, parentSessionId: parent.id };
        this.children.set(info.targetId, frame);
        this.watchSession(child, frame);
        this.subscriptions.push(
          child.on('Page.frameNavigated', (e) => {
            if (e.frame.id === info.targetId) frame.url = e.frame.url;
          }),
        );
        await Promise.all([
          child.send('Page.enable'),
          child.send('Runtime.enable'),
          child.send('Network.enable', { maxTotalBufferSize: 1_000_000, maxResourceBufferSize: 500_000 }),
          child.send('Log.enable').catch((e) => ignore(e, 'console messages are a nicety; some targets lack the Log domain')),
          child.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true, filter: this.childFilter() }),
        ]);
        // Only fills a gap: this answer can arrive after a newer Page.frameNavigated.
        child.send('Page.getFrameTree').then(({ frameTree }) => void (frame.url ||= frameTree.frame.url), () => {});
        this.readFrameTree(child);
        this.emit('frameAttached', frame);
      } else if (info.type === 'worker') {
        // A dedicated worker's requests (its script, its fetches) are reported on its own target, not the page's.
        const name = `in worker ${info.url.split(/[?#]/)[0].split('/').pop() || info.url}`;
        this.subscriptions.push(...this.log.watch(child, () => name, { networkOnly: true }));
        await child.send('Network.enable', { maxTotalBufferSize: 1_000_000, maxResourceBufferSize: 500_000 });
      }
    } catch (e) {
      ignore(e, 'the frame went away while we set it up');
    } finally {
      // Workers and frames paused at start must be released, whatever we did with them — but only
      // once the request guard intercepts in them (a worker released early ran its first requests unguarded).
      if (p.waitingForDebugger) {
        await this.beforeRelease?.(info.targetId).catch((e) => ignore(e, 'released anyway: a paused target left waiting would hang'));
        child.send('Runtime.runIfWaitingForDebugger').catch((e) => ignore(e, 'the target may be gone already'));
      }
    }
  }

  private refreshing?: Promise<void>;
  private nextRefresh?: Promise<void>;

  /**
   * Re-reads url and title from the browser (after loads and same-document navigations). One read at a
   * time: calls made meanwhile share the one read after it (a page can pushState 10,000 times at once,
   * and each would otherwise queue its own call).
   */
  refreshInfo(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.refreshing) {
      this.nextRefresh ??= this.refreshing.then(() => {
        this.nextRefresh = undefined;
        return this.refreshInfo();
      });
      return this.nextRefresh;
    }
    this.refreshing = this.readInfo().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async readInfo(): Promise<void> {
    try {
      const { targetInfo } = await this.connection.send('Target.getTargetInfo', { targetId: this.targetId }, undefined, 5000);
      if (targetInfo.url !== this.url || targetInfo.title !== this.title) {
        this.url = targetInfo.url;
        this.title = targetInfo.title;
        this.emit('infoChanged');
      }
    } catch (e) {
      ignore(e, 'closed meanwhile');
    }
  }

  /** Evaluates an expression in the page's main world and returns its JSON value. */
  async evaluate<T = unknown>(expression: string, timeoutMs?: number): Promise<T> {
    const session = await this.session();
    const res = await session.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, timeoutMs);
    if (res.exceptionDetails) {
      throw new BrowserAgentError('CDP_ERROR', `Script error: ${res.exceptionDetails.exception?.description ?? res.exceptionDetails.text}`);
    }
    return res.result.value as T;
  }

  /** Marks the tab gone and drops its listeners. */
  dispose(): void {
    this.closed = true;
    for (const off of this.subscriptions.splice(0)) off();
    this.children.clear();
    this.emit('closed');
    this.removeAllListeners();
  }
}
