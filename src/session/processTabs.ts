import type { BrowserSession } from './browserSession';
import { resolveEndpoint } from './endpoints';
import type { SessionManager } from './manager';
import { isBrowserPool } from './remoteEngines';
import type { AttachTabMode, PageCandidate } from './tabChoice';
import { TabClaims } from './tabClaims';
import { TabOwnership } from './tabOwnership';
import { claimUserPage } from './userPage';
import { ignore } from '../base/ignore';

export interface ProcessTabsOptions {
  /** Attached to this endpoint (a launched browser is ours alone: nothing to claim). */
  cdpUrl?: string;
  headers?: Record<string, string>;
  /** Work in the page the user has open (`focused`, default) or in a new tab. */
  attachTab?: AttachTabMode;
  /** Pages another server already works in (default: another Browser Agent's world is there). */
  isClaimed?: (p: PageCandidate) => boolean;
}

/** The one client of an in-process server: the process itself. */
const THIS_PROCESS = 'this process';

/**
 * The tabs an in-process server (no session daemon) works in: the page the user has open when attaching, if
 * no other server claimed it, else a tab of its own; then tabs it opened and popups of its tabs. The daemon
 * keeps the same ledger for each of its clients (src/daemon/hub.ts); here the other clients are other
 * processes, kept apart by claim files.
 */
export class ProcessTabs {
  /** How the next session attaches: in the user's page, or (none free) in a new tab. */
  attachTab: 'existing' | 'new' = 'existing';
  private readonly ownership = new TabOwnership<typeof THIS_PROCESS>();
  private readonly ready = new WeakSet<BrowserSession>();
  private claiming?: Promise<BrowserSession>;
  /** Which tabs of a shared browser this process works in (files other servers on this machine see). */
  private claims?: TabClaims;

  constructor(
    private readonly sessions: SessionManager,
    private readonly opts: ProcessTabsOptions,
  ) {
    // The session closed (browser_close, the end of a chat task) while this process lives on: the pages it
    // worked in are free for other servers (its worlds in them are marked released too, worlds.ts).
    sessions.on('status', (st: { state: string }) => {
      if (st.state !== 'none') return;
      this.claims?.releaseAll();
      this.claims = undefined;
      this.ownership.release(THIS_PROCESS);
    });
  }

  /** Only when attached: a launched browser is ours alone. */
  get ownsTab(): ((tabId: string) => boolean) | undefined {
    return this.opts.cdpUrl ? (id) => this.ownership.owns(THIS_PROCESS, id) : undefined;
  }

  /** The live session, its tabs claimed for this process. */
  browser(): Promise<BrowserSession> {
    const live = this.sessions.current;
    if (live && this.ready.has(live)) return Promise.resolve(live);
    this.claiming ??= this.start().finally(() => (this.claiming = undefined));
    return this.claiming;
  }

  private async start(): Promise<BrowserSession> {
    const { cdpUrl } = this.opts;
    let free: string | undefined;
    if (cdpUrl && !this.sessions.current) {
      const found = await this.claimUserPage(cdpUrl);
      free = found.page;
      this.attachTab = free || (found.pool && this.opts.attachTab !== 'new') ? 'existing' : 'new';
    }
    const b = await this.sessions.ensure();
    if (free && !this.ready.has(b)) await b.selectTab(free).catch((e) => ignore(e, 'the free tab may be gone; the active tab is used'));
    if (!this.ready.has(b)) {
      b.on('activeTabChanged', (t: { targetId: string }) => {
        this.ownership.assign(THIS_PROCESS, t.targetId);
        this.claims?.claim(t.targetId);
      });
      b.on('tabClosed', (id: string) => {
        this.ownership.forget(id);
        this.claims?.release(id);
      });
      if (cdpUrl) await this.holdActiveTab(b);
      else {
        const active = await b.activeTab().catch((e) => ignore(e, 'no active tab: none to hold'));
        if (active) this.ownership.assign(THIS_PROCESS, active.targetId);
      }
    }
    this.ready.add(b);
    return b;
  }

  /**
   * A page to work in that no other server claimed, claimed for us; none → a tab of our own.
   * `pool`: a remote-browser engine's endpoint, where the connection we make is a fresh browser of our own
   * with one blank page (a look first would cost a second browser and a pool slot).
   */
  private async claimUserPage(endpoint: string): Promise<{ page?: string; pool?: boolean }> {
    const wsUrl = await resolveEndpoint(endpoint, this.opts.headers).catch((e) => ignore(e, 'an endpoint that does not answer has no user page to claim'));
    this.claims?.releaseAll();
    this.claims = undefined;
    if (wsUrl && isBrowserPool(wsUrl)) return { pool: true };
    if (!wsUrl) return {};
    const claims = (this.claims = new TabClaims(wsUrl));
    const page = await claimUserPage({
      wsUrl,
      headers: this.opts.headers,
      mode: this.opts.attachTab ?? 'focused',
      claims,
      otherAgent: this.opts.isClaimed,
      claim: (id) => claims.claim(id),
      attempts: 3,
    });
    return { page };
  }

  /** Makes the active tab ours; when another server got to it first (it was just created), opens another. */
  private async holdActiveTab(b: BrowserSession): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const active = await b.activeTab().catch((e) => ignore(e, 'no active tab: none to hold'));
      if (!active) return;
      if (!this.claims || this.claims.claim(active.targetId)) return this.ownership.assign(THIS_PROCESS, active.targetId);
      await b.newTab('about:blank');
    }
  }
}
