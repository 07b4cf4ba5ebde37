import type { CdpSession, Unsubscribe } from '../session/cdp';
import type { Tab } from '../session/tab';
import type { BrowserObserver, TabObserver } from './observer';
import { pageCall, pageFns } from '../page/fn';
import scrollingFns from '../page/actions/scrolling.ts?pagefn';
import { ignore } from '../base/ignore';

const scrollingPage = pageFns<typeof import('../page/actions/scrolling')>(scrollingFns);

export interface SettleReport {
  navigated: boolean;
  sameDocument: boolean;
  /** The page started a navigation that did not finish loading within the cap. */
  stillLoading: boolean;
  /** Requests the action started that were still running at the cap (long-polls, slow servers). */
  pendingRequests: number;
  /** What cut the wait short, if anything. */
  interruptedBy?: 'dialog' | 'fileChooser' | 'cancelled' | 'crashed';
  waitedMs: number;
}

export interface SettleOptions {
  /** Overall cap for the whole settle. */
  capMs: number;
  /** Cap for requests started by the action (long-polls must not hold every action). */
  networkCapMs?: number;
  signal?: AbortSignal;
}

/** How long a navigation that stopped without committing may take to show up as a download. */
const DOWNLOAD_GRACE_MS = 500;

/** Request types that stay open by design and never mean "still working". */
const IGNORED_TYPES = new Set(['EventSource', 'WebSocket', 'Ping', 'CSPViolationReport', 'Preflight']);

/**
 * Watches one tab from just before an action until it has settled: a navigation it started has
 * loaded, the requests it started have finished, and the DOM is quiet — each capped, and every
 * wait cut short by a dialog or a file chooser (the page is blocked until the model answers).
 */
export class SettleWatch {
  private readonly offs: Unsubscribe[] = [];
  private readonly inflight = new Map<string, number>();
  private navStarted = false;
  private navCommitted = false;
  private domReady = false;
  private loaded = false;
  private sameDocument = false;
  /** When a main-frame navigation stopped without committing (it may be turning into a download). */
  private stoppedUncommitted = 0;
  private readonly downloadsAtStart: number;
  private readonly started = Date.now();
  private wake?: () => void;

  constructor(
    private readonly tab: Tab,
    private readonly main: CdpSession,
    private readonly tabObs?: TabObserver,
    private readonly browserObs?: BrowserObserver,
  ) {
    this.downloadsAtStart = browserObs?.downloads.size ?? 0;
    const sessions = [main, ...tab.frameSessions().map((f) => f.session)];
    for (const s of sessions) this.watchNetwork(s);
    const isMain = (frameId: string) => frameId === tab.targetId;
    // A renderer that died answers nothing and loads nothing more: stop waiting at once.
    const crashed = () => this.poke();
    tab.on('crashed', crashed);
    this.offs.push(() => tab.off('crashed', crashed));
    this.offs.push(
      main.on('Page.frameRequestedNavigation', (p) => isMain(p.frameId) && this.startNav()),
      // After a pushState, "started loading" alone is the next pushState (a page may make thousands); a new
      // document is still announced by frameRequestedNavigation or frameNavigated.
      main.on('Page.frameStartedLoading', (p) => isMain(p.frameId) && !this.sameDocument && this.startNav()),
      main.on('Page.frameNavigated', (p) => {
        if (!p.frame.parentId) {
          this.navStarted = true;
          this.navCommitted = true;
          // A page restored from the back/forward cache fires no load events: it is already loaded.
          if (p.type === 'BackForwardCacheRestore') this.domReady = this.loaded = true;
          this.poke();
        }
      }),
      main.on('Page.navigatedWithinDocument', (p) => {
        if (isMain(p.frameId)) {
          this.sameDocument = true;
          // pushState and fragment changes also start and stop "loading" without a document to wait for.
          if (!this.navCommitted) this.navStarted = false;
        }
        this.poke();
      }),
      main.on('Page.domContentEventFired', () => {
        if (this.navCommitted) this.domReady = true;
        this.poke();
      }),
      main.on('Page.loadEventFired', () => {
        if (this.navCommitted) this.loaded = this.domReady = true;
        this.poke();
      }),
      main.on('Page.frameStoppedLoading', (p) => {
        // A navigation that turned into a download, or was cancelled, stops without committing.
        if (isMain(p.frameId) && !this.navCommitted) {
          this.navStarted = false;
          if (!this.sameDocument) this.stoppedUncommitted = Date.now();
        }
        this.poke();
      }),
    );
    const onModal = () => this.poke();
    tab.on('dialog', onModal);
    tabObs?.on('fileChooser', onModal);
    this.offs.push(() => tab.off('dialog', onModal), () => tabObs?.off('fileChooser', onModal));
  }

  private startNav() {
    this.navStarted = true;
    this.poke();
  }

  private watchNetwork(s: CdpSession) {
    this.offs.push(
      s.on('Network.requestWillBeSent', (p) => {
        if (p.type && IGNORED_TYPES.has(p.type)) return;
        if (p.type === 'Document' && p.frameId === this.tab.targetId) return; // the navigation itself
        this.inflight.set(p.requestId, Date.now());
        this.poke();
      }),
      s.on('Network.loadingFinished', (p) => this.finish(p.requestId)),
      s.on('Network.loadingFailed', (p) => this.finish(p.requestId)),
      s.on('Network.responseReceived', (p) => {
        if (p.type === 'EventSource') this.finish(p.requestId);
      }),
    );
  }

  private finish(id: string) {
    if (this.inflight.delete(id)) this.poke();
  }

  private poke() {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  private modal(signal?: AbortSignal): SettleReport['interruptedBy'] {
    if (this.tab.crashed) return 'crashed';
    if (this.tab.dialog) return 'dialog';
    if (this.tabObs?.fileChooser) return 'fileChooser';
    if (signal?.aborted) return 'cancelled';
    return undefined;
  }

  /** Sleeps until something we watch changes, or `ms` passes. */
  private nap(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, ms));
      const onAbort = () => done();
      signal?.addEventListener('abort', onAbort, { once: true });
      if (this.browserObs?.downloadsInProgress) this.browserObs.nextDownloadEvent().then(done);
      this.wake = done;
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }
    });
  }

  private async domQuiet(capMs: number): Promise<void> {
    if (capMs <= 0 || this.tab.dialog) return;
    let stop = () => {};
    const dialog = new Promise<void>((r) => {
      const timer = setTimeout(() => stop(), capMs + 1000);
      stop = () => {
        clearTimeout(timer);
        this.tab.off('dialog', stop);
        r();
      };
      this.tab.on('dialog', stop);
    });
    try {
      await Promise.race([this.main.send('Runtime.evaluate', { expression: pageCall(scrollingPage.domQuiet, Math.round(capMs)), awaitPromise: true, returnByValue: true }, capMs + 1000), dialog]);
    } catch (e) {
      ignore(e, 'a navigation destroyed the context: the navigation wait covers it');
    } finally {
      stop();
    }
  }

  async settle(opts: SettleOptions): Promise<SettleReport> {
    const deadline = this.started + opts.capMs;
    const netDeadline = Date.now() + (opts.networkCapMs ?? Math.min(opts.capMs, 3000));
    let interruptedBy = this.modal(opts.signal);
    try {
      if (!interruptedBy) await this.domQuiet(Math.min(1000, deadline - Date.now()));
      let loadGrace = 0;
      for (;;) {
        interruptedBy = this.modal(opts.signal);
        if (interruptedBy || Date.now() >= deadline) break;
        if (this.navStarted && !this.domReady) {
          await this.nap(deadline - Date.now(), opts.signal);
          continue;
        }
        if (this.navStarted && !this.loaded) {
          // DOMContentLoaded came; give subresources a short grace for the load event.
          loadGrace ||= Date.now() + 2000;
          if (Date.now() < loadGrace) {
            await this.nap(Math.min(loadGrace, deadline) - Date.now(), opts.signal);
            continue;
          }
        }
        // Browser.downloadWillBegin comes after the frame stopped loading, on another session: wait for it a little.
        const downloadDue = this.stoppedUncommitted && this.browserObs && this.browserObs.downloads.size === this.downloadsAtStart && Date.now() < this.stoppedUncommitted + DOWNLOAD_GRACE_MS;
        if (downloadDue) {
          await this.nap(Math.min(this.stoppedUncommitted + DOWNLOAD_GRACE_MS, deadline) - Date.now(), opts.signal);
          continue;
        }
        const waitingDownload = this.browserObs && this.browserObs.downloadsInProgress > 0;
        if ((this.inflight.size > 0 || waitingDownload) && Date.now() < netDeadline) {
          await this.nap(Math.min(netDeadline, deadline) - Date.now(), opts.signal);
          continue;
        }
        break;
      }
      if (!interruptedBy && (this.navCommitted || this.sameDocument)) await this.domQuiet(Math.min(500, deadline - Date.now()));
    } finally {
      for (const off of this.offs.splice(0)) off();
    }
    return {
      navigated: this.navCommitted,
      sameDocument: this.sameDocument,
      stillLoading: this.navStarted && !this.domReady,
      pendingRequests: this.inflight.size,
      interruptedBy: interruptedBy ?? this.modal(opts.signal),
      waitedMs: Date.now() - this.started,
    };
  }

  dispose(): void {
    for (const off of this.offs.splice(0)) off();
  }
}
