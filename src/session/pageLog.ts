import type { Protocol } from 'devtools-protocol';
import type { CdpSession } from './cdp';

/**
 * What a tab's page printed to its console and which requests it made, since its document loaded: what a
 * developer opens DevTools for ("why is the list empty?" — a 404 on /api/items, a TypeError in app.js).
 * Recorded from the tab's own CDP sessions (the page and its out-of-process iframes), so it costs no call
 * to read, and kept bounded (a page can log in a loop).
 */

export type ConsoleLevel = 'error' | 'warning' | 'info' | 'debug';

export interface ConsoleEntry {
  level: ConsoleLevel;
  /** The console method or source as DevTools names it: `error`, `warning`, `log`, `info`, `debug`, `exception`, `network`, … */
  kind: string;
  text: string;
  /** `app.js:12` when the page said where. */
  where?: string;
  /** `in frame <url>` for an out-of-process iframe's message. */
  frame?: string;
}

export interface RequestEntry {
  /** `#3` in the list: numbered from 1 per document, so a model can ask for one request's details. */
  id: number;
  method: string;
  url: string;
  /** CDP's resource type: Document, Script, Fetch, XHR, Image, … */
  type: string;
  status?: number;
  statusText?: string;
  /** Why it failed (`net::ERR_CONNECTION_REFUSED`, `blocked: inspector`); absent while pending or after a response. */
  failed?: string;
  /** Where a redirect sent it. */
  redirectedTo?: string;
  finished?: boolean;
  bytes?: number;
  fromCache?: boolean;
  frame?: string;
  /** Main-frame loader: the requests of the current document are those of its loader. */
  loaderId?: string;
  main: boolean;
  /** For the details of one request (headers, bodies): CDP's id and the session that saw it. */
  requestId: string;
  session: CdpSession;
  requestHeaders: Record<string, string>;
  responseHeaders?: Record<string, string>;
  mimeType?: string;
  /** The first MAX_KEPT_BODY characters of what was sent; `postDataLength` is the whole length. */
  postData?: string;
  postDataLength?: number;
  hasPostData?: boolean;
}

/** Kept per tab; older entries go first (and are counted). */
export const MAX_CONSOLE_ENTRIES = 1000;
export const MAX_REQUEST_ENTRIES = 1000;
/** A page can post a megabyte a thousand times: what is kept of each body (a request's details show no more). */
export const MAX_KEPT_BODY = 10_000;
/** A page can log megabytes in one message. */
const MAX_MESSAGE_CHARS = 2000;

/** What an action's result names when it fails: what the page is made of and talks to. */
const REPORTED_TYPES = new Set(['Document', 'Script', 'Fetch', 'XHR', 'EventSource', 'WebSocket']);

const LEVEL_OF: Record<string, ConsoleLevel> = { error: 'error', assert: 'error', warning: 'warning', debug: 'debug', verbose: 'debug' };

export class PageLog {
  readonly console: ConsoleEntry[] = [];
  readonly requests: RequestEntry[] = [];
  /** Entries dropped for the caps since the document loaded. */
  droppedConsole = 0;
  droppedRequests = 0;
  /** False until a main-frame navigation was seen: the log then starts when we attached, not at the load. */
  sawLoad = false;
  private readonly live = new Map<string, RequestEntry>();

  /** Where the log starts, for a result's first line. */
  get since(): string {
    return this.sawLoad ? 'since the page loaded' : 'since Browser Agent attached to the tab';
  }

  /**
   * Subscribes to one session of the tab; returns the unsubscribers. `frame`: where a child session's entries
   * come from (`in frame <url>`, `in worker app.js`). `networkOnly`: a worker, whose console the page's Log reports.
   */
  watch(session: CdpSession, frame?: () => string, o: { networkOnly?: boolean } = {}): Array<() => void> {
    return [...(o.networkOnly ? [] : this.watchConsole(session, frame)), ...this.watchNetwork(session, frame)];
  }

  private watchConsole(session: CdpSession, frame?: () => string): Array<() => void> {
    return [
      session.on('Runtime.consoleAPICalled', (p: Protocol.Runtime.ConsoleAPICalledEvent) => {
        if (p.type === 'endGroup' || p.type === 'clear') return;
        const top = p.stackTrace?.callFrames[0];
        this.pushConsole({ level: LEVEL_OF[p.type] ?? 'info', kind: p.type, text: formatArgs(p.args), where: where(top?.url, top?.lineNumber), frame: frame?.() });
      }),
      session.on('Runtime.exceptionThrown', (p: Protocol.Runtime.ExceptionThrownEvent) => {
        const d = p.exceptionDetails;
        const first = d.exception?.description?.split('\n')[0];
        const text = first ? (d.text && d.text !== 'Uncaught' && !first.startsWith(d.text) ? `${d.text} ${first}` : `Uncaught ${first}`) : d.text;
        this.pushConsole({ level: 'error', kind: 'exception', text, where: where(d.url ?? d.stackTrace?.callFrames[0]?.url, d.lineNumber), frame: frame?.() });
      }),
      // What the browser itself logs: failed loads, CSP violations, deprecations, interventions.
      session.on('Log.entryAdded', ({ entry: e }: Protocol.Log.EntryAddedEvent) => {
        this.pushConsole({ level: e.level === 'verbose' ? 'debug' : e.level, kind: e.source, text: e.text, where: where(e.url, e.lineNumber), frame: frame?.() });
      }),
    ];
  }

  private watchNetwork(session: CdpSession, frame?: () => string): Array<() => void> {
    const main = !frame;
    const offs = [
      session.on('Network.requestWillBeSent', (p: Protocol.Network.RequestWillBeSentEvent) => {
        if (/^data:/.test(p.request.url)) return;
        const prev = this.live.get(p.requestId);
        if (prev && p.redirectResponse) {
          prev.status = p.redirectResponse.status;
          prev.statusText = p.redirectResponse.statusText;
          prev.redirectedTo = p.request.url;
          prev.finished = true;
        }
        const e: RequestEntry = {
          id: 0, method: p.request.method, url: p.request.url, type: p.type ?? 'Other', frame: frame?.(), loaderId: p.loaderId, main,
          requestId: p.requestId, session, requestHeaders: p.request.headers,
          postData: p.request.postData?.slice(0, MAX_KEPT_BODY), postDataLength: p.request.postData?.length, hasPostData: p.request.hasPostData,
        };
        this.live.set(p.requestId, e);
        this.pushRequest(e);
      }),
      session.on('Network.responseReceived', (p: Protocol.Network.ResponseReceivedEvent) => {
        const e = this.live.get(p.requestId);
        if (!e) return;
        e.status = p.response.status;
        e.statusText = p.response.statusText;
        e.responseHeaders = p.response.headers;
        e.mimeType = p.response.mimeType;
        e.fromCache = p.response.fromDiskCache || p.response.fromServiceWorker || undefined;
        e.type = p.type ?? e.type;
      }),
      session.on('Network.requestServedFromCache', (p: Protocol.Network.RequestServedFromCacheEvent) => {
        const e = this.live.get(p.requestId);
        if (e) e.fromCache = true;
      }),
      session.on('Network.loadingFinished', (p: Protocol.Network.LoadingFinishedEvent) => {
        const e = this.live.get(p.requestId);
        if (!e) return;
        e.finished = true;
        e.bytes = p.encodedDataLength;
        this.live.delete(p.requestId);
      }),
      session.on('Network.loadingFailed', (p: Protocol.Network.LoadingFailedEvent) => {
        const e = this.live.get(p.requestId);
        if (!e) return;
        e.finished = true;
        this.live.delete(p.requestId);
        // A body cut off after its answer came (an error page for a script, a navigation away): the status says it.
        if (p.canceled && e.status !== undefined) return;
        e.failed = p.canceled ? 'canceled' : p.blockedReason ? `${p.errorText} (blocked: ${p.blockedReason})` : p.errorText;
      }),
    ];
    if (main) {
      offs.push(
        session.on('Page.frameNavigated', (p: Protocol.Page.FrameNavigatedEvent) => {
          if (!p.frame.parentId) this.newDocument(p.frame.loaderId);
        }),
      );
    }
    return offs;
  }

  /** A new document in the main frame: only its own requests (its loader's, already under way) stay. */
  private newDocument(loaderId: string) {
    this.sawLoad = true;
    this.console.length = 0;
    this.droppedConsole = 0;
    const keep = this.requests.filter((r) => r.main && r.loaderId === loaderId);
    this.requests.length = 0;
    this.requests.push(...keep);
    this.nextId = 1;
    for (const r of keep) r.id = this.nextId++;
    this.droppedRequests = 0;
    for (const [id, r] of this.live) if (!keep.includes(r)) this.live.delete(id);
  }

  private pushConsole(e: ConsoleEntry) {
    if (e.text.length > MAX_MESSAGE_CHARS) e.text = `${e.text.slice(0, MAX_MESSAGE_CHARS)}…(+${e.text.length - MAX_MESSAGE_CHARS} chars)`;
    this.console.push(e);
    if (this.console.length > MAX_CONSOLE_ENTRIES) {
      this.console.shift();
      this.droppedConsole++;
    }
  }

  private nextId = 1;
  private readonly reported = new WeakSet<RequestEntry>();

  /**
   * Requests that failed or got an HTTP error since the last take, for an action's result: the page's own
   * document, scripts and API calls (images, fonts, the favicon and the like only in the full list), not
   * the ones cancelled by a navigation or stopped by Browser Agent's request guard (named on their own).
   */
  takeFailures(): RequestEntry[] {
    const out: RequestEntry[] = [];
    for (const r of this.requests) {
      if (this.reported.has(r) || !r.finished) continue;
      const failed = (r.failed && r.failed !== 'canceled' && !/ERR_BLOCKED_BY_CLIENT/.test(r.failed)) || (r.status !== undefined && r.status >= 400 && !r.redirectedTo);
      if (!failed || !REPORTED_TYPES.has(r.type)) continue;
      this.reported.add(r);
      out.push(r);
    }
    return out;
  }

  private pushRequest(e: RequestEntry) {
    e.id = this.nextId++;
    this.requests.push(e);
    if (this.requests.length > MAX_REQUEST_ENTRIES) {
      const old = this.requests.shift()!;
      for (const [id, r] of this.live) if (r === old) this.live.delete(id);
      this.droppedRequests++;
    }
  }
}

/** `app.js:12`: where a message was logged. */
function where(url?: string, line?: number): string | undefined {
  return url ? `${shortName(url)}${line !== undefined ? `:${line + 1}` : ''}` : undefined;
}

/** `https://x.example/js/app.js?v=3` → `app.js` (a person reads the file name; the full URL is in the request list). */
function shortName(url: string): string {
  try {
    const u = new URL(url);
    const file = u.pathname.split('/').filter(Boolean).pop();
    // A script inline in a page at `/`: DevTools calls it `(index)`.
    return file || (u.host ? '(index)' : url);
  } catch {
    return url.slice(0, 80);
  }
}

/** Console arguments as DevTools prints them: `%s`/`%d`/`%o` filled in, `%c` styles dropped, objects by their preview. */
export function formatArgs(args: Protocol.Runtime.RemoteObject[]): string {
  const parts = args.map(argText);
  if (args[0]?.type === 'string' && /%[sdifoOc]/.test(parts[0])) {
    let rest = 1;
    const first = parts[0].replace(/%([sdifoOc%])/g, (m, k: string) => {
      if (k === '%') return '%';
      if (rest >= parts.length) return m;
      const v = parts[rest++];
      return k === 'c' ? '' : k === 'd' || k === 'i' ? String(Number.parseInt(v, 10)) : v;
    });
    return [first, ...parts.slice(rest)].join(' ');
  }
  return parts.join(' ');
}

function argText(a: Protocol.Runtime.RemoteObject): string {
  if (a.type === 'string') return String(a.value);
  if (a.type === 'undefined') return 'undefined';
  if (a.unserializableValue) return a.unserializableValue;
  if (a.value !== undefined && a.type !== 'object') return String(a.value);
  if (a.subtype === 'null') return 'null';
  const p = a.preview;
  if (p && (a.subtype === undefined || a.subtype === 'array') && a.type === 'object') {
    const items = p.properties.map((x) => (a.subtype === 'array' ? previewValue(x) : `${x.name}: ${previewValue(x)}`));
    const more = p.overflow ? ', …' : '';
    return a.subtype === 'array' ? `[${items.join(', ')}${more}]` : `{${items.join(', ')}${more}}`;
  }
  // Errors print their stack's first line; functions, nodes and the rest their description.
  return (a.description ?? a.className ?? a.type).split('\n')[0];
}

function previewValue(x: Protocol.Runtime.PropertyPreview): string {
  return x.type === 'string' ? JSON.stringify(x.value ?? '') : (x.value ?? x.subtype ?? x.type);
}
