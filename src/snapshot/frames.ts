// The CDP side of extraction: per-tab ref state, one isolated world per frame with the extractor
// installed, click-listener detection, and the walk into same-process and out-of-process iframes.
import type { CdpSession } from '../session/cdp';
import { worldName } from '../session/worlds';
import { answersWithin } from '../session/probe';
import type { Tab } from '../session/tab';
import { BrowserAgentError, errorMessage } from '../base/errors';
import { pageCall, pageFns } from '../page/fn';
import snapshotWorldFns from '../page/snapshotWorld.ts?pagefn';

/** Calls into the frame's snapshot world. */
const worldPage = pageFns<typeof import('../page/snapshotWorld')>(snapshotWorldFns);
import extractorSource from '../page/snapshot/extractor.ts?inpage';
import type { PageItem, RunOptions, RunResult } from '../page/protocol';
import type { LineParts } from './lineChange';
import { ignore } from '../base/ignore';

/** Unique per process: worlds are shared by name between CDP clients (src/session/worlds.ts). */
const WORLD = worldName();
/** Listeners that make an element something to act on: clicks, presses, drag-and-drop sources and targets, and script-driven hover menus. */
const CLICK_EVENTS = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'dragstart', 'drop', 'mouseenter']);
/** Listener nodes resolved per frame and snapshot: enough for icon buttons, bounded on listener-heavy pages. */
const MAX_LISTENER_NODES = 300;
const EXTRACT_TIMEOUT_MS = 15_000;
const MAX_FRAME_DEPTH = 4;
/** Closed roots nested in closed roots need one extra run per level. */
const MAX_CLOSED_ROOT_ROUNDS = 4;

export interface FrameRef {
  /** 0 for the main frame, n for `fn:` refs. */
  prefix: number;
  frameId: string;
  session: CdpSession;
  url?: string;
}

export interface RefRecord {
  role: string;
  name: string;
  prefix: number;
  line: string;
  /** The frame's document the ref was issued in: refs are numbered per document, so a number alone means nothing. */
  doc?: string;
  /** Where it was shown when not on this tab's earlier page: `on another tab`, `in the browser before it restarted`. */
  from?: string;
}

export interface LastSnapshot {
  url: string;
  title: string;
  /** The main document it was taken in: refs restart in a new one. */
  doc?: string;
  /** The document of each frame read, by ref prefix (a frame that loads another page numbers its refs afresh). */
  frameDocs?: Map<number, string>;
  /** Its element lines by ref. */
  lines: Map<string, { ref?: string; text: string; parts?: LineParts }>;
  /** Its text lines and how often each occurs, for the text an action made appear. */
  texts?: Map<string, number>;
}

/** Everything we remember about a tab between snapshots. */
export interface TabState {
  framesById: Map<string, FrameRef>;
  framesByPrefix: Map<number, FrameRef>;
  nextPrefix: number;
  /** Next ref number per frame prefix, and the document it counts in (numbering restarts per document). */
  counters: Map<number, number>;
  docs: Map<number, string>;
  /** Every ref the snapshot issued, latest document first: names elements in results (focus, covers, deltas). */
  refs: Map<string, RefRecord>;
  /** The refs the model was shown, with the document each was shown in: the only refs an action may use (shown.ts). */
  shown: Map<string, RefRecord>;
  last?: LastSnapshot;
  contexts: Map<string, number>;
  watched: Set<string>;
  offs: Array<() => void>;
  /** Calls in flight that a JavaScript dialog must abort (one tab listener for all of them). */
  dialogWaiters: Set<() => void>;
}

const states = new WeakMap<Tab, TabState>();

export function tabState(tab: Tab): TabState {
  let st = states.get(tab);
  if (!st) {
    st = {
      framesById: new Map(), framesByPrefix: new Map(), nextPrefix: 1, counters: new Map(), docs: new Map(), refs: new Map(), shown: new Map(),
      contexts: new Map(), watched: new Set(), offs: [], dialogWaiters: new Set(),
    };
    states.set(tab, st);
    const s = st;
    const onDialog = () => [...s.dialogWaiters].forEach((w) => w());
    tab.on('dialog', onDialog);
    s.offs.push(() => tab.off('dialog', onDialog));
    tab.once('closed', () => s.offs.splice(0).forEach((off) => off()));
  }
  return st;
}

export function refString(prefix: number, id: number): string {
  return prefix ? `f${prefix}:${id}` : String(id);
}

export function parseRef(ref: string): { prefix: number; id: number } | null {
  const m = /^\s*\[?(?:f(\d+):)?(\d+)\]?\s*$/.exec(ref);
  return m ? { prefix: m[1] ? Number(m[1]) : 0, id: Number(m[2]) } : null;
}

export async function mainFrame(tab: Tab): Promise<FrameRef> {
  const session = await tab.session();
  return frameRef(tabState(tab), tab.targetId, session, 0);
}

function frameRef(st: TabState, frameId: string, session: CdpSession, prefix?: number): FrameRef {
  let f = st.framesById.get(frameId);
  if (!f) {
    f = { prefix: prefix ?? st.nextPrefix++, frameId, session };
    st.framesById.set(frameId, f);
    st.framesByPrefix.set(f.prefix, f);
  }
  f.session = session; // an iframe can move to another process
  return f;
}

function watch(st: TabState, session: CdpSession) {
  if (st.watched.has(session.id)) return;
  st.watched.add(session.id);
  const dropSession = () => {
    for (const k of [...st.contexts.keys()]) if (k.startsWith(session.id + '|')) st.contexts.delete(k);
  };
  st.offs.push(
    session.on('Runtime.executionContextDestroyed', (p) => {
      for (const [k, v] of st.contexts) if (v === p.executionContextId && k.startsWith(session.id + '|')) st.contexts.delete(k);
    }),
    session.on('Runtime.executionContextsCleared', dropSession),
    session.on('Page.frameNavigated', (p) => st.contexts.delete(`${session.id}|${p.frame.id}`)),
  );
}

/** The isolated world of a frame with the extractor installed (created on first use and after navigations). */
async function world(tab: Tab, st: TabState, frame: FrameRef): Promise<number> {
  watch(st, frame.session);
  const key = `${frame.session.id}|${frame.frameId}`;
  const known = st.contexts.get(key);
  if (known !== undefined) return known;
  const { executionContextId } = await raceDialog(tab, frame.session.send('Page.createIsolatedWorld', { frameId: frame.frameId, worldName: WORLD, grantUniveralAccess: false }, EXTRACT_TIMEOUT_MS));
  const res = await raceDialog(tab, frame.session.send('Runtime.evaluate', { expression: extractorSource, contextId: executionContextId, returnByValue: true }, EXTRACT_TIMEOUT_MS));
  if (res.exceptionDetails) throw new BrowserAgentError('CDP_ERROR', `Could not install the snapshot script: ${res.exceptionDetails.exception?.description ?? res.exceptionDetails.text}`);
  st.contexts.set(key, executionContextId);
  return executionContextId;
}

function isContextGone(e: unknown): boolean {
  return /context|frame.*(not found|detached)|No frame|Execution context was destroyed|__baSnap/i.test(errorMessage(e));
}

let groupSeq = 0;

/**
 * Evaluates `expression` (which may use `__baSnap`) in the frame's isolated world, recreating the world once if it went away.
 * A result kept as an object (`returnByValue` false) lives in an object group of this call alone, so the caller
 * releases it with `releaseGroup` without freeing objects another call running at the same time still uses.
 */
export async function evalInFrame<T>(tab: Tab, frame: FrameRef, expression: string, returnByValue = true): Promise<{ value: T; objectId?: string; contextId: number; group: string }> {
  const st = tabState(tab);
  const group = returnByValue ? 'ba-snapshot' : `ba-snapshot-${++groupSeq}`;
  for (let attempt = 0; ; attempt++) {
    try {
      const contextId = await world(tab, st, frame);
      const res = await raceDialog(tab, frame.session.send('Runtime.evaluate', { expression, contextId, returnByValue, objectGroup: group }, EXTRACT_TIMEOUT_MS));
      if (res.exceptionDetails) {
        frame.session.send('Runtime.releaseObjectGroup', { objectGroup: group }).catch((e) => ignore(e, 'release: the objects die with their context anyway'));
        const msg = res.exceptionDetails.exception?.description ?? res.exceptionDetails.text;
        throw new BrowserAgentError('CDP_ERROR', `Snapshot script failed: ${msg}`);
      }
      return { value: res.result.value as T, objectId: res.result.objectId, contextId, group };
    } catch (e) {
      if (e instanceof BrowserAgentError && e.code === 'DIALOG_OPEN') throw e;
      st.contexts.delete(`${frame.session.id}|${frame.frameId}`);
      if (attempt >= 1 || !isContextGone(e)) throw e;
    }
  }
}

/** A dialog that opens while the page runs our script blocks it: fail at once with DIALOG_OPEN instead of timing out. */
function raceDialog<T>(tab: Tab, call: Promise<T>): Promise<T> {
  const st = tabState(tab);
  return new Promise<T>((resolve, reject) => {
    const onDialog = () => {
      try {
        tab.assertNoDialog();
      } catch (e) {
        reject(e);
      }
    };
    st.dialogWaiters.add(onDialog);
    call.then(resolve, reject).finally(() => st.dialogWaiters.delete(onDialog));
    call.catch((e) => ignore(e, 'settled after a dialog rejection: nobody is waiting any more'));
    onDialog(); // already open
  });
}

/**
 * Elements with JavaScript click listeners but no other sign of interactivity (a `div` with
 * addEventListener('click')) — one DOMDebugger call for the whole document, bounded resolves.
 */
async function markListeners(tab: Tab, frame: FrameRef, contextId: number): Promise<void> {
  const s = frame.session;
  if (tab.dialog) return;
  try {
    const doc = await raceDialog(tab, s.send('Runtime.evaluate', { expression: 'document', returnByValue: false, objectGroup: 'ba-listeners' }, 5000));
    if (!doc.result.objectId) return;
    const { listeners } = await s.send('DOMDebugger.getEventListeners', { objectId: doc.result.objectId, depth: -1, pierce: false }, 5000);
    const ids = new Set<number>();
    /** Double-click listeners: on a table, its cells are edited in place (page/gestures.ts). */
    const dbl = new Set<number>();
    for (const l of listeners) {
      if (!l.backendNodeId) continue;
      if (CLICK_EVENTS.has(l.type)) ids.add(l.backendNodeId);
      else if (l.type === 'dblclick') dbl.add(l.backendNodeId);
      if (ids.size + dbl.size >= MAX_LISTENER_NODES) break;
    }
    if (!ids.size && !dbl.size) return;
    const order = [...ids, ...[...dbl].filter((id) => !ids.has(id))];
    const resolved = await Promise.all(
      order.map((backendNodeId) =>
        s.send('DOM.resolveNode', { backendNodeId, executionContextId: contextId, objectGroup: 'ba-listeners' }, 5000).then((r) => r.object.objectId, () => undefined),
      ),
    );
    const mark = async (fn: 'markClickable' | 'markEditHosts', objectIds: Array<string | undefined>) => {
      const args = objectIds.filter((x): x is string => !!x).map((objectId) => ({ objectId }));
      if (args.length) await s.send('Runtime.callFunctionOn', { functionDeclaration: worldPage[fn], executionContextId: contextId, arguments: args, returnByValue: true }, 5000);
    };
    await mark('markClickable', order.map((id, i) => (ids.has(id) ? resolved[i] : undefined)));
    if (dbl.size) await mark('markEditHosts', order.map((id, i) => (dbl.has(id) ? resolved[i] : undefined)));
  } catch (e) {
    ignore(e, 'Listener detection is a bonus signal; the other signals still apply.');
  } finally {
    s.send('Runtime.releaseObjectGroup', { objectGroup: 'ba-listeners' }).catch((e) => ignore(e, 'release: the objects die with their context anyway'));
  }
}

export interface FrameResult {
  frame: FrameRef;
  items: PageItem[];
  /** Results of the iframes, by the index in the FrameItem. */
  children: Map<number, FrameResult | { frameError: string; prefix?: number }>;
  ms: number;
  count: number;
  url: string;
  /** The document's base URL, for resolving link targets. */
  base?: string;
  title: string;
  doc?: string;
  /** DOM changes counted in the frame when it was read: the same count later means nothing changed. */
  changes?: string;
  /** Nothing was read: the subtree root's ref was shown in another document of this frame. */
  otherDocument?: boolean;
}

export interface ExtractOptions {
  viewportOnly?: boolean;
  /** Subtree: a ref number inside `frame`. */
  root?: number;
  /** The document the root's ref was shown in (a root in another document is STALE_REF). */
  rootDoc?: string;
  /** Walk into iframes (not for subtree snapshots of a non-frame element). */
  frames?: boolean;
  listeners?: boolean;
}

/** Extracts one frame and, recursively, its iframes. */
export async function extractFrame(tab: Tab, frame: FrameRef, opts: ExtractOptions, depth = 0): Promise<FrameResult> {
  const st = tabState(tab);
  const contextId = await world(tab, st, frame);
  const isSessionMain = frame.prefix === 0 || tab.frameSession(frame.frameId) !== undefined;
  const t0 = Date.now();
  if (opts.listeners !== false && isSessionMain) await markListeners(tab, frame, contextId);
  const t1 = Date.now();
  const run: RunOptions = { start: st.counters.get(frame.prefix) ?? 1, doc: st.docs.get(frame.prefix), viewportOnly: opts.viewportOnly, root: opts.root, rootDoc: opts.rootDoc };
  let value = await runExtractor(tab, frame, run);
  // Closed shadow roots: page code cannot reach them but CDP can. Ask only about the few hosts the run
  // flagged (once per element), and run again only when that found a new root (nested ones need a round each).
  for (let round = 0; round < MAX_CLOSED_ROOT_ROUNDS && value.hosts; round++) {
    const t2 = Date.now();
    const added = await enterClosedRoots(tab, frame);
    if (process.env.BA_SNAPSHOT_TIMING) console.error(`[snapshot] frame f${frame.prefix}: ${value.hosts} possible closed-root hosts, ${added} roots entered in ${Date.now() - t2} ms`);
    if (!added) break;
    value = await runExtractor(tab, frame, run);
  }
  // The caller, who knows what the ref was, says so (shown.ts).
  if (value.otherDocument) return { frame, items: [], children: new Map(), ms: value.ms, count: 0, url: value.url, title: value.title, otherDocument: true };
  if (value.missingRoot) throw new BrowserAgentError('STALE_REF', `Ref ${refString(frame.prefix, opts.root!)} is no longer on the page.`, 'Take a new snapshot without ref.');
  st.counters.set(frame.prefix, value.next);
  if (value.doc) st.docs.set(frame.prefix, value.doc);
  if (process.env.BA_SNAPSHOT_TIMING) console.error(`[snapshot] frame f${frame.prefix}: listeners ${t1 - t0} ms, run ${Date.now() - t1} ms (in page ${value.ms} ms), ${value.items.length} items`);
  const result: FrameResult = {
    frame, items: value.items, children: new Map(), ms: value.ms, count: value.count,
    url: value.url, base: value.base, title: value.title, doc: value.doc, changes: value.changes,
  };
  frame.url = value.url;
  if (value.frames && opts.frames !== false && depth < MAX_FRAME_DEPTH) {
    const childIds = await iframeIds(frame, tab);
    await Promise.all(
      childIds.map(async (frameId, index) => {
        if (!frameId) return result.children.set(index, { frameError: 'frame not loaded' });
        const child = tab.frameSession(frameId);
        const ref = frameRef(st, frameId, child ? child.session : frame.session);
        // A frame in a renderer of its own can hang alone: every call would wait the extract timeout.
        if (child && !(await answersWithin(child.session, FRAME_PROBE_MS))) return result.children.set(index, { frameError: 'not responding: a script keeps the frame busy', prefix: ref.prefix });
        try {
          result.children.set(index, await extractFrame(tab, ref, { ...opts, root: undefined, rootDoc: undefined }, depth + 1));
        } catch (e) {
          result.children.set(index, { frameError: errorMessage(e).slice(0, 120), prefix: ref.prefix });
        }
      }),
    );
  }
  return result;
}

/** How long an out-of-process frame may take to run a trivial script before it counts as hung. */
const FRAME_PROBE_MS = 2000;

async function runExtractor(tab: Tab, frame: FrameRef, run: RunOptions): Promise<RunResult> {
  // One JSON string crosses CDP much faster than a 20k-object value tree.
  const { value: json } = await evalInFrame<string>(tab, frame, pageCall(worldPage.runJson, run));
  return JSON.parse(json) as RunResult;
}

/**
 * Resolves the closed shadow roots of the last run's candidate hosts into the extractor's world
 * (`DOM.describeNode` with pierce lists them, `DOM.resolveNode` hands them over). Returns how many it added.
 */
async function enterClosedRoots(tab: Tab, frame: FrameRef): Promise<number> {
  const s = frame.session;
  const { objectId, contextId, group } = await evalInFrame<unknown>(tab, frame, pageCall(worldPage.takeHostCandidates), false);
  if (!objectId) return 0;
  try {
    const { result } = await s.send('Runtime.getProperties', { objectId, ownProperties: true }, 5000);
    const hosts = result.filter((p) => /^\d+$/.test(p.name) && p.value?.objectId).map((p) => p.value!.objectId!);
    const roots = await Promise.all(
      hosts.map(async (host) => {
        const { node } = await s.send('DOM.describeNode', { objectId: host, depth: 0, pierce: true }, 5000).catch((e) => ignore(e, 'a host that is gone has no closed root', { node: undefined }));
        const closed = node?.shadowRoots?.find((r) => r.shadowRootType === 'closed');
        if (!closed) return undefined;
        const r = await s.send('DOM.resolveNode', { backendNodeId: closed.backendNodeId, executionContextId: contextId, objectGroup: group }, 5000).catch((e) => ignore(e, 'a root that is gone is skipped'));
        return r?.object.objectId;
      }),
    );
    const args = roots.filter((x): x is string => !!x).map((id) => ({ objectId: id }));
    if (!args.length) return 0;
    const added = await s.send('Runtime.callFunctionOn', { functionDeclaration: worldPage.addClosedRoots, executionContextId: contextId, arguments: args, returnByValue: true }, 5000);
    return Number(added.result.value) || 0;
  } finally {
    s.send('Runtime.releaseObjectGroup', { objectGroup: group }).catch((e) => ignore(e, 'release: the objects die with their context anyway'));
  }
}

/** Frame ids of the iframe elements the last run found, in its order. */
async function iframeIds(frame: FrameRef, tab: Tab): Promise<Array<string | undefined>> {
  const { objectId, group } = await evalInFrame<unknown>(tab, frame, pageCall(worldPage.frames), false);
  if (!objectId) return [];
  try {
    const { result } = await frame.session.send('Runtime.getProperties', { objectId, ownProperties: true });
    const els = result.filter((p) => /^\d+$/.test(p.name) && p.value?.objectId).sort((a, b) => Number(a.name) - Number(b.name));
    const out: Array<string | undefined> = [];
    await Promise.all(
      els.map(async (p) => {
        const { node } = await frame.session.send('DOM.describeNode', { objectId: p.value!.objectId! }).catch((e) => ignore(e, 'an element that is gone names no frame', { node: undefined }));
        out[Number(p.name)] = node?.frameId;
      }),
    );
    return out;
  } finally {
    frame.session.send('Runtime.releaseObjectGroup', { objectGroup: group }).catch((e) => ignore(e, 'release: the objects die with their context anyway'));
  }
}
