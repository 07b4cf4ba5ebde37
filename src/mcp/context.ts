import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveEndpoint } from '../session/endpoints';
import { CdpConnection } from '../session/cdp';
import type { BrowserSession } from '../session/browserSession';
import { SessionManager, type Logger, type SessionSettings } from '../session/manager';
import { chooseAttachTab, claimedByAgentWorld, probePages, type AttachTabMode, type PageCandidate } from '../session/tabChoice';
import type { ToolContext, ToolSettings } from '../contract/types';
import { TabClaims } from '../session/tabClaims';
import { daemonProvider } from '../daemon/provider';
import { isBrowserPool, type RemoteBrowserMode } from '../session/remoteEngines';

export interface McpOptions {
  cdpUrl?: string;
  /** With cdpUrl: HTTP headers for the connection (an engine's API key). */
  headers?: Record<string, string>;
  /** With cdpUrl to a remote-browser engine: a browser per session (default), or one shared through the daemon. */
  remoteBrowser?: RemoteBrowserMode;
  /** With cdpUrl: work in the page the user has open (`focused`, default) or in a new tab. */
  attachTab?: AttachTabMode;
  /** Pages another server already works in (supplied by the claim mechanism; default: another Browser Agent's world is there). */
  isClaimed?: (p: PageCandidate) => boolean;
  headless?: boolean;
  userDataDir?: string;
  executablePath?: string;
  browserArgs?: string[];
  allowedOrigins: string[];
  blockedOrigins: string[];
  downloadsDir?: string;
  allowedSchemes?: string[];
  maxWaitMs?: number;
  /** Token budget of a snapshot when the call gives none. */
  snapshotMaxTokens?: number;
  /** Tokens of a long page a snapshot shows before folding its text (0 never folds). */
  snapshotFoldTextAfter?: number;
  /** `--skills-dir` values (see src/skills/folders.ts). */
  skillsDirs?: string[];
  /** Work in the per-user session daemon's shared browser (default), or in-process (--no-daemon). */
  daemon?: boolean;
  /** The MCP client's name once it has introduced itself, for the daemon's session list. */
  clientName?: () => string | undefined;
}

/**
 * The page to work in when attaching: the one the user has open and focused, even when DevTools or
 * another tool is attached to it; pages another server already works in are skipped (then a new tab).
 */
async function userPage(wsUrl: string, headers: Record<string, string> | undefined, mode: AttachTabMode, isClaimed: (p: PageCandidate) => boolean): Promise<string | undefined> {
  if (mode === 'new') return undefined;
  const conn = await CdpConnection.connect(wsUrl, { headers, timeoutMs: 5000 });
  try {
    return chooseAttachTab(await probePages(conn), { mode, isClaimed });
  } finally {
    conn.close();
  }
}

export function createMcpContext(opts: McpOptions, log: Logger): { ctx: ToolContext; sessions: SessionManager } {
  const toolSettings: ToolSettings = {
    allowedSchemes: opts.allowedSchemes ?? [],
    downloadsDir: opts.downloadsDir ?? join(tmpdir(), 'browser-agent-downloads'),
    maxWaitMs: opts.maxWaitMs ?? 30_000,
    snapshotMaxTokens: opts.snapshotMaxTokens,
    snapshotFoldTextAfter: opts.snapshotFoldTextAfter,
  };
  const launch = { headless: opts.headless, userDataDir: opts.userDataDir, executablePath: opts.executablePath, args: opts.browserArgs };
  if (opts.daemon) {
    // The daemon gives this process its own tab (the page the user has open when attaching, if no
    // other client works in it) and shows it no other; nothing to claim here.
    const provider = daemonProvider({ client: () => `MCP: ${opts.clientName?.() ?? 'unknown client'}` });
    const attachTab = opts.attachTab === 'new' ? 'new' : 'existing';
    const sessions = new SessionManager(() => ({ mode: opts.cdpUrl ? 'attach' : 'launch', attach: opts.cdpUrl ? { endpoint: opts.cdpUrl, headers: opts.headers } : undefined, attachTab, remoteBrowser: opts.remoteBrowser, launch, provider }), log);
    const browser = () => sessions.ensure();
    return { ctx: { sessions, browser, tab: async () => (await browser()).activeTab(), settings: toolSettings }, sessions };
  }
  let attachTab: 'existing' | 'new' = 'existing';
  const settings = (): SessionSettings => ({
    mode: opts.cdpUrl ? 'attach' : 'launch',
    attach: opts.cdpUrl ? { endpoint: opts.cdpUrl, headers: opts.headers } : undefined,
    attachTab,
    launch,
  });
  const sessions = new SessionManager(settings, log);
  const claimed = new WeakSet<BrowserSession>();
  // Tabs this process worked in: the claimed one, tabs it opened, popups of its tabs.
  const owned = new Set<string>();
  let claiming: Promise<BrowserSession> | undefined;

  // Which tabs of a shared browser this process works in (files other servers on this machine see).
  let claims: TabClaims | undefined;

  /**
   * A page to work in that no other server claimed, claimed for us; undefined → a tab of our own.
   * `pool`: a remote-browser engine's endpoint, where the connection we make is a fresh browser of our own
   * with one blank page (a look first would cost a second browser and a pool slot).
   */
  async function claimUserPage(endpoint: string): Promise<{ page?: string; pool?: boolean }> {
    const wsUrl = await resolveEndpoint(endpoint, opts.headers).catch(() => undefined);
    claims?.releaseAll();
    claims = undefined;
    if (wsUrl && isBrowserPool(wsUrl)) return { pool: true };
    if (wsUrl) claims = new TabClaims(wsUrl);
    const otherAgent = opts.isClaimed ?? claimedByAgentWorld;
    // A background tab is never taken: selecting it would hide the tab another client works in.
    const taken = (p: PageCandidate) => !!claims?.isClaimed(p.targetId) || otherAgent(p) || p.visible === false;
    for (let attempt = 0; attempt < 3; attempt++) {
      const pick = wsUrl ? await userPage(wsUrl, opts.headers, opts.attachTab ?? 'focused', taken).catch(() => undefined) : undefined;
      if (!pick) return {};
      if (!claims || claims.claim(pick)) return { page: pick };
      // Another server claimed it between our look and our claim: look again.
    }
    return {};
  }

  /** Makes the active tab ours; when another server got to it first (it was just created), opens another. */
  async function holdActiveTab(b: BrowserSession): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const active = await b.activeTab().catch(() => undefined);
      if (!active) return;
      if (!claims || claims.claim(active.targetId)) return void owned.add(active.targetId);
      await b.newTab('about:blank', { newWindow: true });
    }
  }

  async function browser(): Promise<BrowserSession> {
    const live = sessions.current;
    if (live && claimed.has(live)) return live;
    claiming ??= (async () => {
      let free: string | undefined;
      if (opts.cdpUrl && !sessions.current) {
        const found = await claimUserPage(opts.cdpUrl);
        free = found.page;
        attachTab = free || (found.pool && opts.attachTab !== 'new') ? 'existing' : 'new';
      }
      const b = await sessions.ensure();
      if (free && !claimed.has(b)) await b.selectTab(free).catch(() => undefined);
      if (!claimed.has(b)) {
        b.on('activeTabChanged', (t: { targetId: string }) => {
          owned.add(t.targetId);
          claims?.claim(t.targetId);
        });
        b.on('tabClosed', (id: string) => claims?.release(id));
        if (opts.cdpUrl) await holdActiveTab(b);
        else {
          const active = await b.activeTab().catch(() => undefined);
          if (active) owned.add(active.targetId);
        }
      }
      claimed.add(b);
      return b;
    })().finally(() => (claiming = undefined));
    return claiming;
  }

  const ctx: ToolContext = {
    sessions,
    browser,
    tab: async () => (await browser()).activeTab(),
    settings: toolSettings,
    // Only when attached: a launched browser is ours alone.
    ownsTab: opts.cdpUrl ? (id) => owned.has(id) : undefined,
  };
  return { ctx, sessions };
}
