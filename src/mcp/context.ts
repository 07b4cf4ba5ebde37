import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionManager, type Logger, type SessionSettings } from '../session/manager';
import type { AttachTabMode, PageCandidate } from '../session/tabChoice';
import type { ToolContext, ToolSettings } from '../contract/types';
import { ProcessTabs } from '../session/processTabs';
import { daemonProvider } from '../daemon/provider';
import type { RemoteBrowserMode } from '../session/remoteEngines';

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
  // In-process: this process is the one client; the tabs it works in are claimed against other servers.
  const settings = (): SessionSettings => ({
    mode: opts.cdpUrl ? 'attach' : 'launch',
    attach: opts.cdpUrl ? { endpoint: opts.cdpUrl, headers: opts.headers } : undefined,
    attachTab: tabs.attachTab,
    launch,
  });
  const sessions = new SessionManager(settings, log);
  const tabs = new ProcessTabs(sessions, opts);
  const browser = () => tabs.browser();
  const ctx: ToolContext = { sessions, browser, tab: async () => (await browser()).activeTab(), settings: toolSettings, ownsTab: tabs.ownsTab };
  return { ctx, sessions };
}
