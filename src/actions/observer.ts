import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { EventEmitter } from 'node:events';
import type { Protocol } from 'devtools-protocol';
import type { BrowserSession } from '../session/browserSession';
import type { CdpSession } from '../session/cdp';
import type { Tab } from '../session/tab';
import { placeDownload, safeFileName } from './downloadFiles';
import { ignore } from '../base/ignore';

export interface FileChooserState {
  session: CdpSession;
  backendNodeId?: number;
  mode: 'selectSingle' | 'selectMultiple';
}

export interface DownloadInfo {
  guid: string;
  url: string;
  filename: string;
  path: string;
  state: 'inProgress' | 'completed' | 'canceled';
  bytes: number;
  /** Set once the safety gate looked at it (executables are confirmed). */
  screened?: boolean;
  /** Why the safety gate stopped it; the file is cancelled or deleted. */
  blocked?: string;
}

/** Console errors kept between two calls (a page can log in a loop); the rest are counted. */
const MAX_KEPT_ERRORS = 20;

/** A console error or uncaught exception, with the script that raised it when the browser said. */
export interface ConsoleError {
  text: string;
  url?: string;
}

/**
 * What happened in one tab between tool calls that a model must hear about: console errors,
 * an intercepted file chooser (a modal state like a dialog).
 */
export class TabObserver extends EventEmitter {
  private errors: ConsoleError[] = [];
  private errorCount = 0;
  fileChooser?: FileChooserState;

  constructor(readonly tab: Tab) {
    super();
  }

  async init(): Promise<void> {
    const main = await this.tab.session();
    await this.watch(main);
    for (const f of this.tab.frameSessions()) await this.watch(f.session).catch((e) => ignore(e, 'a frame that goes away while being watched is not watched'));
    this.tab.on('frameAttached', (f: { session: CdpSession }) => void this.watch(f.session).catch((e) => ignore(e, 'a frame that goes away while being watched is not watched')));
  }

  private async watch(session: CdpSession) {
    session.on('Runtime.exceptionThrown', (p) => {
      const d = p.exceptionDetails;
      this.pushError(d.exception?.description?.split('\n')[0] ?? d.text, d.url || d.stackTrace?.callFrames[0]?.url);
    });
    session.on('Runtime.consoleAPICalled', (p) => {
      if (p.type !== 'error' && p.type !== 'assert') return;
      this.pushError(p.args.map((a) => (a.value !== undefined ? String(a.value) : a.description ?? a.type)).join(' '), p.stackTrace?.callFrames[0]?.url);
    });
    session.on('Page.fileChooserOpened', (p) => {
      this.fileChooser = { session, backendNodeId: p.backendNodeId, mode: p.mode };
      this.emit('fileChooser', this.fileChooser);
    });
    await session.send('Page.setInterceptFileChooserDialog', { enabled: true });
  }

  private pushError(text: string, url?: string) {
    this.errorCount++;
    if (this.errors.length < MAX_KEPT_ERRORS) this.errors.push({ text: text.length > 300 ? `${text.slice(0, 297)}…` : text, url: url || undefined });
  }

  /** Console errors since the last call: the first MAX_KEPT_ERRORS, and how many there were. */
  takeErrors(): { errors: ConsoleError[]; total: number } {
    const taken = { errors: this.errors.splice(0), total: this.errorCount };
    this.errorCount = 0;
    return taken;
  }
}

/** Browser-wide facts: downloads (saved to a folder) and tabs opened since the last result. */
export class BrowserObserver {
  readonly downloads = new Map<string, DownloadInfo>();
  /** Downloads that are not ours, by guid: the name to give a person's file (see onForeignProgress). */
  private readonly foreign = new Map<string, string>();
  private reported = new Set<string>();
  private opened: Tab[] = [];
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly browser: BrowserSession,
    readonly downloadsDir: string,
  ) {}

  async init(): Promise<void> {
    const conn = this.browser.connection;
    conn.on('Browser.downloadWillBegin', (p: Protocol.Browser.DownloadWillBeginEvent, sid?: string) => {
      if (sid) return;
      if (!this.browser.downloadIsOurs(p.frameId)) {
        // Another client's (it names and moves its own file), or a person's in a browser we attached to.
        if (!this.browser.shared) this.foreign.set(p.guid, safeFileName(p.suggestedFilename));
        return;
      }
      const filename = safeFileName(p.suggestedFilename);
      this.downloads.set(p.guid, { guid: p.guid, url: p.url, filename, path: join(this.downloadsDir, filename), state: 'inProgress', bytes: 0 });
      this.notify();
    });
    conn.on('Browser.downloadProgress', (p: Protocol.Browser.DownloadProgressEvent, sid?: string) => {
      if (sid) return;
      const d = this.downloads.get(p.guid);
      if (!d) return this.onForeignProgress(p);
      d.bytes = p.receivedBytes;
      const landed = p.filePath ?? join(this.downloadsDir, p.guid);
      if (d.blocked) {
        // Refused while it was still running and the cancel lost the race: remove what landed.
        if (p.state === 'completed') rmSync(landed, { force: true });
        if (p.state !== 'inProgress') d.state = 'canceled';
        return;
      }
      if (p.state === 'completed') d.path = this.place(landed, this.downloadsDir, d.filename) ?? d.path;
      d.state = p.state;
      if (p.state !== 'inProgress') this.notify();
    });
    this.browser.on('tabOpened', (tab: Tab) => this.opened.push(tab));
    mkdirSync(this.downloadsDir, { recursive: true });
    await this.claimDownloads();
  }

  /**
   * Points the browser's downloads at our folder, each saved under its guid (named when it completes).
   * The setting is browser-wide: in a shared browser the client that set it last gets every file, and
   * when that client leaves Chrome falls back to its own default folder. So a shared session sets it
   * again before each action, and each client moves its own finished files into its folder.
   */
  async claimDownloads(): Promise<void> {
    await this.browser.connection.send('Browser.setDownloadBehavior', { behavior: 'allowAndName', downloadPath: this.downloadsDir, eventsEnabled: true });
  }

  /** A finished file under its final name in `dir`; undefined when it is not there (nothing to move). */
  private place(landed: string, dir: string, name: string): string | undefined {
    try {
      return placeDownload(landed, dir, name);
    } catch {
      return existsSync(landed) ? landed : undefined;
    }
  }

  /**
   * A person's download in a browser we attached to: the browser-wide setting saved it in our folder under its
   * guid. It goes to their own downloads folder under its name (where Chrome saves by default), or, without one,
   * keeps its name in our folder.
   */
  private onForeignProgress(p: Protocol.Browser.DownloadProgressEvent) {
    const name = this.foreign.get(p.guid);
    if (name === undefined || p.state === 'inProgress') return;
    this.foreign.delete(p.guid);
    if (p.state !== 'completed' || !p.filePath) return;
    const theirs = personDownloadsDir();
    this.place(p.filePath, theirs && existsSync(theirs) ? theirs : dirname(p.filePath), name);
  }

  get downloadsInProgress(): number {
    return [...this.downloads.values()].filter((d) => d.state === 'inProgress').length;
  }

  /** Resolves on the next download event (for waits). */
  nextDownloadEvent(): Promise<void> {
    return new Promise((r) => this.waiters.add(r));
  }

  private notify() {
    for (const w of this.waiters) w();
    this.waiters.clear();
  }

  /** Downloads that finished or started since the last call. */
  takeDownloads(): DownloadInfo[] {
    const out: DownloadInfo[] = [];
    for (const d of this.downloads.values()) {
      const key = `${d.guid}:${d.state}`;
      if (this.reported.has(key)) continue;
      this.reported.add(key);
      out.push({ ...d });
    }
    return out;
  }

  takeOpenedTabs(): Tab[] {
    return this.opened.splice(0);
  }

  /** Tabs opened since the last result, without taking them (the safety screen looks first). */
  peekOpenedTabs(): readonly Tab[] {
    return [...this.opened];
  }

  /** Forgets an opened tab (closed by the safety screen; reported by it instead). */
  dropOpenedTab(tab: Tab): void {
    this.opened = this.opened.filter((t) => t !== tab);
  }
}

/** Where Chrome saves a person's downloads by default on this machine (XDG on Linux, else ~/Downloads). */
function personDownloadsDir(): string | undefined {
  const home = homedir();
  const xdg = process.env.XDG_DOWNLOAD_DIR?.replace(/^\$HOME(?=\/|$)/, home);
  return xdg || (home ? join(home, 'Downloads') : undefined);
}

const tabObservers = new WeakMap<Tab, Promise<TabObserver>>();
const browserObservers = new WeakMap<BrowserSession, Promise<BrowserObserver>>();

export function observeTab(tab: Tab): Promise<TabObserver> {
  let p = tabObservers.get(tab);
  if (!p) {
    const o = new TabObserver(tab);
    p = o.init().then(() => o);
    p.catch((e) => {
      ignore(e, 'the caller sees the error; the next call observes the tab again');
      tabObservers.delete(tab);
    });
    tabObservers.set(tab, p);
  }
  return p;
}

export function observeBrowser(browser: BrowserSession, downloadsDir: string): Promise<BrowserObserver> {
  let p = browserObservers.get(browser);
  if (!p) {
    const o = new BrowserObserver(browser, downloadsDir);
    p = o.init().then(() => o);
    p.catch((e) => {
      ignore(e, 'the caller sees the error; the next call observes the browser again');
      browserObservers.delete(browser);
    });
    browserObservers.set(browser, p);
  }
  return p;
}
