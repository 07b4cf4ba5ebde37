import type { Protocol } from 'devtools-protocol';
import { ignore } from '../base/ignore';

type Params = Protocol.Page.StartScreencastRequest;

interface Cast {
  params: Params;
  /** Frames Chrome sent since this session asked; it gets every `every`-th of them. */
  seen: number;
  every: number;
}

interface TabCasts {
  casts: Map<string, Cast>;
  /** What Chrome was last asked for (JSON), or undefined when it casts nothing. */
  applied?: string;
  /** Chrome's frame number → the sessions handed that frame that have not acknowledged it yet. */
  unacked: Map<number, Set<string>>;
  /** Start and stop calls to Chrome go in order. */
  queue: Promise<unknown>;
}

/** Every n-th frame, n a whole number from 1 (a careless 0, negative or non-number asks for every frame). */
const nth = (p: Params) => Math.max(1, Math.floor(Number(p.everyNthFrame ?? 1)) || 1);

/** No limit beats any limit; otherwise the larger. */
const larger = (a?: number, b?: number) => (a === undefined || b === undefined ? undefined : Math.max(a, b));

/**
 * Page screencasts of several CDP sessions on one relayed tab. chrome.debugger gives a tab one debugger
 * attachment, so every session on it shares one Page domain and one screencast: keepDrawing's 8×8 cast (one
 * frame in a million, only to keep a background tab drawing) replaced the live view's picture, and the live
 * view's stopScreencast ended keepDrawing's cast, leaving the tab throttled. Here each session has its own:
 * Chrome casts what all of them together ask for (the largest size, the best quality, the highest rate), a
 * session gets only the frames at its own rate, and Chrome's frame is acknowledged once every session handed
 * it has acknowledged it (so the slowest viewer still paces the stream, as its own screencast would).
 */
export class RelayScreencasts {
  private readonly tabs = new Map<number, TabCasts>();

  constructor(
    /** A command to the tab's debugger session. */
    private readonly send: (tabId: number, method: string, params: object) => Promise<unknown>,
    /** A frame event for one of our sessions. */
    private readonly emit: (sessionId: string, params: Protocol.Page.ScreencastFrameEvent) => void,
  ) {}

  /** Page.startScreencast from one session: restarts Chrome's cast only when the union changes. */
  start(tabId: number, sessionId: string, params: Params): Promise<unknown> {
    const tab = this.tab(tabId);
    tab.casts.set(sessionId, { params, seen: 0, every: 1 });
    return this.apply(tabId, tab).catch((e) => {
      // Chrome refused (bad parameters, the tab going): this session casts nothing, the next change asks again.
      tab.casts.delete(sessionId);
      tab.applied = undefined;
      throw e;
    });
  }

  /** Page.stopScreencast from one session (or the session detached): the others' casts go on. */
  stop(tabId: number, sessionId: string): Promise<unknown> {
    const tab = this.tabs.get(tabId);
    if (!tab?.casts.delete(sessionId)) return Promise.resolve({});
    for (const [frame, waiting] of tab.unacked) if (waiting.delete(sessionId) && !waiting.size) this.ackChrome(tabId, tab, frame);
    return this.apply(tabId, tab);
  }

  /** The tab is gone or no longer shared: its debugger (and the cast) went with it. */
  forget(tabId: number): void {
    this.tabs.delete(tabId);
  }

  ack(tabId: number, sessionId: string, frame: number): Promise<unknown> {
    const tab = this.tabs.get(tabId);
    const waiting = tab?.unacked.get(frame);
    if (tab && waiting?.delete(sessionId) && !waiting.size) this.ackChrome(tabId, tab, frame);
    return Promise.resolve({});
  }

  /** A frame from Chrome: to each session whose rate it falls on; acknowledged at once when it goes to none. */
  frame(tabId: number, event: Protocol.Page.ScreencastFrameEvent): void {
    const tab = this.tabs.get(tabId);
    if (!tab) return this.ackChrome(tabId, undefined, event.sessionId);
    const to = [...tab.casts].filter(([, c]) => c.seen++ % c.every === 0).map(([id]) => id);
    if (!to.length) return this.ackChrome(tabId, tab, event.sessionId);
    tab.unacked.set(event.sessionId, new Set(to));
    for (const id of to) this.emit(id, event);
  }

  private tab(tabId: number): TabCasts {
    let tab = this.tabs.get(tabId);
    if (!tab) this.tabs.set(tabId, (tab = { casts: new Map(), unacked: new Map(), queue: Promise.resolve() }));
    return tab;
  }

  private ackChrome(tabId: number, tab: TabCasts | undefined, frame: number) {
    tab?.unacked.delete(frame);
    void this.send(tabId, 'Page.screencastFrameAck', { sessionId: frame }).catch((e) => ignore(e, 'the tab may be gone; no next frame to pace'));
  }

  private apply(tabId: number, tab: TabCasts): Promise<unknown> {
    const casts = [...tab.casts.values()];
    let union: Params | undefined;
    for (const { params: p } of casts) {
      union = !union
        ? { ...p, everyNthFrame: nth(p) }
        : {
            format: union.format === 'png' || p.format === 'png' ? 'png' : union.format,
            quality: larger(union.quality, p.quality),
            maxWidth: larger(union.maxWidth, p.maxWidth),
            maxHeight: larger(union.maxHeight, p.maxHeight),
            everyNthFrame: Math.min(union.everyNthFrame!, nth(p)),
          };
    }
    // Chrome sends every union.everyNthFrame-th frame; a session that asked for fewer gets every n-th of those.
    for (const c of casts) c.every = Math.max(1, Math.round(nth(c.params) / union!.everyNthFrame!));
    const next = union && JSON.stringify(union);
    // Unchanged: Chrome already casts this (a change still in flight failed for the session that made it).
    if (next === tab.applied) return tab.queue.then(() => ({}), (e) => ignore(e, 'the session whose change failed saw it', {}));
    tab.applied = next;
    if (!union) tab.unacked.clear();
    tab.queue = tab.queue.catch((e) => ignore(e, 'the caller of the failed change saw it')).then(() => (union ? this.send(tabId, 'Page.startScreencast', union) : this.send(tabId, 'Page.stopScreencast', {})));
    return tab.queue;
  }
}
