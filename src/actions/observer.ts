import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { EventEmitter } from 'node:events';
import type { Protocol } from 'devtools-protocol';
import type { BrowserSession } from '../session/browserSession';
import type { CdpSession } from '../session/cdp';
import type { Tab } from '../session/tab';

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

/**
 * What happened in one tab between tool calls that a model must hear about: console errors,
 * an intercepted file chooser (a modal state like a dialog).
 */
export class TabObserver extends EventEmitter {
  private errors: string[] = [];
  fileChooser?: FileChooserState;

  constructor(readonly tab: Tab) {
    super();
  }

  async init(): Promise<void> {
    const main = await this.tab.session();
    await this.watch(main);
    for (const f of this.tab.frameSessions()) await this.watch(f.session).catch(() => {});
    this.tab.on('frameAttached', (f: { session: CdpSession }) => void this.watch(f.session).catch(() => {}));
  }

  private async watch(session: CdpSession) {
    session.on('Runtime.exceptionThrown', (p) => this.pushError(p.exceptionDetails.exception?.description?.split('\n')[0] ?? p.exceptionDetails.text));
    session.on('Runtime.consoleAPICalled', (p) => {
      if (p.type !== 'error' && p.type !== 'assert') return;
      this.pushError(p.args.map((a) => (a.value !== undefined ? String(a.value) : a.description ?? a.type)).join(' '));
    });
    session.on('Page.fileChooserOpened', (p) => {
      this.fileChooser = { session, backendNodeId: p.backendNodeId, mode: p.mode };
      this.emit('fileChooser', this.fileChooser);
    });
    await session.send('Page.setInterceptFileChooserDialog', { enabled: true });
  }

  private pushError(text: string) {
    if (this.errors.length < 20) this.errors.push(text.length > 300 ? `${text.slice(0, 297)}…` : text);
  }

  /** Console errors since the last call. */
  takeErrors(): string[] {
    return this.errors.splice(0);
  }
}

/** Browser-wide facts: downloads (saved to a folder) and tabs opened since the last result. */
export class BrowserObserver {
  readonly downloads = new Map<string, DownloadInfo>();
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
      this.downloads.set(p.guid, { guid: p.guid, url: p.url, filename: p.suggestedFilename, path: join(this.downloadsDir, p.suggestedFilename), state: 'inProgress', bytes: 0 });
      this.notify();
    });
    conn.on('Browser.downloadProgress', (p: Protocol.Browser.DownloadProgressEvent, sid?: string) => {
      const d = this.downloads.get(p.guid);
      if (sid || !d) return;
      d.bytes = p.receivedBytes;
      if (p.filePath) d.path = p.filePath; // Chrome renames on clashes ("setup (1).exe")
      if (d.blocked) {
        // Refused while it was still running and the cancel lost the race: remove what landed.
        if (p.state === 'completed') rmSync(d.path, { force: true });
        if (p.state !== 'inProgress') d.state = 'canceled';
        return;
      }
      d.state = p.state;
      if (p.state !== 'inProgress') this.notify();
    });
    this.browser.on('tabOpened', (tab: Tab) => this.opened.push(tab));
    mkdirSync(this.downloadsDir, { recursive: true });
    await conn.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: this.downloadsDir, eventsEnabled: true });
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

const tabObservers = new WeakMap<Tab, Promise<TabObserver>>();
const browserObservers = new WeakMap<BrowserSession, Promise<BrowserObserver>>();

export function observeTab(tab: Tab): Promise<TabObserver> {
  let p = tabObservers.get(tab);
  if (!p) {
    const o = new TabObserver(tab);
    p = o.init().then(() => o);
    p.catch(() => tabObservers.delete(tab));
    tabObservers.set(tab, p);
  }
  return p;
}

export function observeBrowser(browser: BrowserSession, downloadsDir: string): Promise<BrowserObserver> {
  let p = browserObservers.get(browser);
  if (!p) {
    const o = new BrowserObserver(browser, downloadsDir);
    p = o.init().then(() => o);
    p.catch(() => browserObservers.delete(browser));
    browserObservers.set(browser, p);
  }
  return p;
}
