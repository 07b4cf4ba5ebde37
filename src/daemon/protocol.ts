// The session daemon's wire protocol, version 1. One JSON text per line over a Unix socket (a named
// pipe on Windows). Lines that start with `{"t":` are control messages. In a proxy session every
// other line is a CDP message passed through unchanged (only its `id` is renumbered), so a page's
// snapshot or a screenshot is never decoded and re-encoded on the way; a direct session (the
// default) carries only control messages and speaks CDP to the browser itself.
import type { LaunchOptions } from '../session/launcher';
import type { RemoteBrowserMode } from '../session/remoteEngines';

export const PROTOCOL_VERSION = 1;

/** Which browser a session wants. Sessions that ask for the same one share it. */
export type BrowserSpec =
  | { mode: 'launch'; launch: LaunchOptions }
  | {
      mode: 'attach';
      endpoint: string;
      headers?: Record<string, string>;
      attachTab?: 'existing' | 'new';
      /** A remote-browser engine's endpoint: a browser per session (default), or one for every session that asks for it. */
      remoteBrowser?: RemoteBrowserMode;
    }
  /** The tabs the user shared through the companion Chrome extension (proxy transport only). */
  | { mode: 'relay' };

/** client → daemon */
export type ClientMessage =
  /** Opens a session (or resumes one after a dropped socket), or a control connection (no browser). */
  | {
      t: 'hello';
      v: number;
      client: string;
      pid: number;
      browser?: BrowserSpec;
      resume?: string;
      cdpTimeoutMs?: number;
      /**
       * direct (default): the daemon owns the browser and the session registry; the client speaks
       * CDP to the browser on a WebSocket of its own, so no CDP message pays an extra process hop.
       * proxy: every CDP message goes through this socket (for browsers only the daemon can reach).
       */
      transport?: 'direct' | 'proxy';
      /** After the daemon was restarted: the tabs this client already works in. */
      rejoin?: { tabs: string[] };
    }
  /** Direct sessions: a tab this client opened is its own. */
  | { t: 'own'; targetId: string }
  /** Ends this session: its tabs are closed (launched browser) or left open (attached). */
  | { t: 'end' }
  | { t: 'status'; rid: number }
  | { t: 'endSession'; rid: number; session: string }
  | { t: 'focus'; rid: number; session: string }
  | { t: 'shutdown'; rid: number }
  /** Turns relay mode on (the endpoint for the Chrome extension) and reports its state. */
  | { t: 'relay'; rid: number };

export interface RelayStatus {
  port: number;
  connected: boolean;
  sharedTabs: number;
}

export interface SessionInfo {
  id: string;
  client: string;
  pid: number;
  browser: string;
  tabs: { id: string; title: string; url: string }[];
  startedAt: number;
  lastActivity: number;
  connected: boolean;
  transport: 'direct' | 'proxy';
  requests: number;
  messages: number;
}

export interface DaemonStatus {
  pid: number;
  version: number;
  socket: string;
  startedAt: number;
  idleExitMs: number;
  browsers: { key: string; kind: 'launched' | 'attached'; endpoint: string; pid?: number; headless: boolean; sessions: number }[];
  sessions: SessionInfo[];
  /** Present while relay mode is on. */
  relay?: RelayStatus;
}

/** daemon → client */
export type DaemonMessage =
  | {
      t: 'welcome';
      v: number;
      daemonPid: number;
      session?: string;
      kind?: 'launched' | 'attached';
      endpoint?: string;
      headless?: boolean;
      resumed?: boolean;
      /** Direct sessions: the tabs given to this client (connect to `endpoint` yourself). */
      tabs?: string[];
    }
  | { t: 'error'; code: string; message: string; hint?: string; rid?: number }
  | { t: 'result'; rid: number; status?: DaemonStatus; ok?: boolean; relay?: RelayStatus }
  /** The session is over (ended from elsewhere, browser gone, daemon exiting); the socket closes next. */
  | { t: 'gone'; reason: string };

/**
 * Splits a byte stream into lines without copying more than needed. A line longer than `maxLine`
 * characters is never held whole: it is skipped up to its newline and `onOversized` gets its start
 * (enough to find a request id and answer it), so one bad message costs neither memory nor the
 * connection.
 */
export class LineReader {
  private rest = '';
  private skipping = false;
  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLine = Infinity,
    private readonly onOversized?: (head: string) => void,
  ) {}

  push(chunk: string): void {
    let start = 0;
    let nl = chunk.indexOf('\n');
    while (nl >= 0) {
      const piece = chunk.slice(start, nl);
      if (this.skipping) this.skipping = false;
      else {
        const line = this.rest ? this.rest + piece : piece;
        if (line.length > this.maxLine) this.onOversized?.(line.slice(0, 256));
        else if (line) this.onLine(line);
      }
      this.rest = '';
      start = nl + 1;
      nl = chunk.indexOf('\n', start);
    }
    if (this.skipping) return;
    this.rest += chunk.slice(start);
    if (this.rest.length > this.maxLine) {
      this.onOversized?.(this.rest.slice(0, 256));
      this.rest = '';
      this.skipping = true;
    }
  }
}

export function isControl(line: string): boolean {
  return line.startsWith('{"t":');
}
