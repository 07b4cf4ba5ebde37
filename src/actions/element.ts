import { ignore } from '../base/ignore';
import type { Protocol } from 'devtools-protocol';
import { BrowserAgentError, errorMessage } from '../base/errors';
import type { CdpSession } from '../session/cdp';
import type { Tab } from '../session/tab';
import type { ElementHandle } from '../snapshot/types';
import { actWorld, forgetActWorld } from './actWorld';
import { pageFns } from '../page/fn';
import scrollingFns from '../page/actions/scrolling.ts?pagefn';

const scrollingPage = pageFns<typeof import('../page/actions/scrolling')>(scrollingFns);

/** How a person would call the element in a sentence: `button "Submit"`. */
export function describeHandle(h: Pick<ElementHandle, 'role' | 'name'>): string {
  return h.name ? `${h.role} "${h.name.length > 80 ? `${h.name.slice(0, 77)}…` : h.name}"` : h.role;
}

function stale(h: ElementHandle, detail?: string): BrowserAgentError {
  return new BrowserAgentError(
    'STALE_REF',
    `The element [${h.ref}] ${describeHandle(h)} is no longer in the page${detail ? ` (${detail})` : ''}.`,
    'Take a new browser_snapshot and use a current ref.',
  );
}

/**
 * A remote object for the element, in an isolated world of its own frame: the page's scripts share the DOM
 * but not the globals, so a page that replaces `getBoundingClientRect`, `JSON`, `Array.prototype.map` or
 * `dispatchEvent` cannot blind or break the functions we run on its elements.
 */
export async function resolveObject(h: ElementHandle): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const contextId = await actWorld(h.session, h.frameId).catch((e) => ignore(e, 'no isolated world: resolved in the default one'));
    try {
      const { object } = await h.session.send('DOM.resolveNode', { backendNodeId: h.backendNodeId, ...(contextId ? { executionContextId: contextId } : {}) });
      if (!object.objectId) throw stale(h);
      return object.objectId;
    } catch (e) {
      if (e instanceof BrowserAgentError && e.code !== 'CDP_ERROR') throw e;
      // The world may have gone with an earlier document of the frame: make it again, once.
      if (contextId && attempt === 0) {
        forgetActWorld(h.session, h.frameId);
        continue;
      }
      throw stale(h, errorMessage(e).replace(/^DOM\.resolveNode: /, ''));
    }
  }
}

/** Runs `fn(el, ...args)` in the page with `this`/first argument bound to the element; JSON result. */
export async function callOnElement<T>(h: ElementHandle, fn: string, args: unknown[] = [], timeoutMs?: number): Promise<T> {
  const objectId = await resolveObject(h);
  try {
    const res = await h.session
      .send(
        'Runtime.callFunctionOn',
        { objectId, functionDeclaration: fn, arguments: [{ objectId }, ...args.map((value) => ({ value }))], returnByValue: true, awaitPromise: true },
        timeoutMs,
      )
      .catch((e) => {
        // The document went away under the call (a reload, a navigation): the element is gone with it.
        if (/context was destroyed|Cannot find context|Could not find object/i.test(errorMessage(e))) throw stale(h, 'the page loaded a new document');
        throw e;
      });
    if (res.exceptionDetails) throw new BrowserAgentError('CDP_ERROR', `In-page script failed: ${res.exceptionDetails.exception?.description ?? res.exceptionDetails.text}`);
    return res.result.value as T;
  } finally {
    h.session.send('Runtime.releaseObject', { objectId }).catch((e) => ignore(e, 'release: the object dies with its context anyway'));
  }
}

/**
 * The element `fn(el, ...args)` returns (an ancestor, an option in a portal), as a handle in the same frame, or
 * undefined when it returns null. `fn` runs as a method: `this` is the element.
 */
export async function elementFrom(h: ElementHandle, fn: string, args: unknown[] = [], name = ''): Promise<ElementHandle | undefined> {
  const objectId = await resolveObject(h);
  try {
    const { result } = await h.session.send('Runtime.callFunctionOn', { objectId, functionDeclaration: fn, arguments: args.map((value) => ({ value })) }, 5000);
    if (!result.objectId) return undefined;
    const { node } = await h.session.send('DOM.describeNode', { objectId: result.objectId }, 5000);
    h.session.send('Runtime.releaseObject', { objectId: result.objectId }).catch((e) => ignore(e, 'release: the object dies with its context anyway'));
    return { ...h, ref: node.backendNodeId === h.backendNodeId ? h.ref : `${h.ref}>`, role: node.backendNodeId === h.backendNodeId ? h.role : '', name, backendNodeId: node.backendNodeId };
  } finally {
    h.session.send('Runtime.releaseObject', { objectId }).catch((e) => ignore(e, 'release: the object dies with its context anyway'));
  }
}

export interface Point {
  x: number;
  y: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function quadBox(q: number[]): Box {
  const xs = [q[0], q[2], q[4], q[6]];
  const ys = [q[1], q[3], q[5], q[7]];
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

function quadArea(q: number[]): number {
  let area = 0;
  for (let i = 0; i < 4; i++) {
    const j = (i + 1) % 4;
    area += (q[i * 2] * q[j * 2 + 1] - q[j * 2] * q[i * 2 + 1]) / 2;
  }
  return Math.abs(area);
}

/**
 * Offset of a frame session's viewport inside the top page's viewport. Out-of-process iframes
 * report coordinates in their own space, so we add the content box of each owner <iframe> in its
 * parent, up to the page. Same-process frames already report page coordinates.
 */
export async function frameOffset(tab: Tab, session: CdpSession): Promise<Point> {
  const main = await tab.session();
  let x = 0;
  let y = 0;
  let current = session;
  for (let depth = 0; current.id !== main.id && depth < 10; depth++) {
    const frame = tab.frameSessions().find((f) => f.session.id === current.id);
    if (!frame) break;
    const parent = frame.parentSessionId === main.id ? main : tab.frameSessions().find((f) => f.session.id === frame.parentSessionId)?.session;
    if (!parent) break;
    const { backendNodeId } = await parent.send('DOM.getFrameOwner', { frameId: frame.targetId });
    const { model } = await parent.send('DOM.getBoxModel', { backendNodeId });
    const content = quadBox(model.content);
    x += content.x;
    y += content.y;
    current = parent;
  }
  return { x, y };
}

/** The element's visible boxes in top-page viewport coordinates (empty when not rendered). */
export async function elementQuads(tab: Tab, h: ElementHandle): Promise<number[][]> {
  let quads: Protocol.DOM.Quad[];
  try {
    ({ quads } = await h.session.send('DOM.getContentQuads', { backendNodeId: h.backendNodeId }));
  } catch (e) {
    const msg = errorMessage(e);
    if (/No node|not found|Could not find/i.test(msg)) throw stale(h);
    if (/Could not compute content quads/i.test(msg)) return [];
    throw e;
  }
  const off = await frameOffset(tab, h.session);
  return quads.filter((q) => quadArea(q) > 0.99).map((q) => q.map((v, i) => v + (i % 2 === 0 ? off.x : off.y)));
}

export async function elementBox(tab: Tab, h: ElementHandle): Promise<Box | undefined> {
  const quads = await elementQuads(tab, h);
  return quads.length ? quadBox(quads[0]) : undefined;
}

/** Scrolls the element into view the way a person would find it: centered if it was off screen. */
export async function scrollIntoView(h: ElementHandle): Promise<void> {
  try {
    await h.session.send('DOM.scrollIntoViewIfNeeded', { backendNodeId: h.backendNodeId });
  } catch (e) {
    const msg = errorMessage(e);
    if (/No node|not found/i.test(msg)) throw stale(h);
    // Text nodes, hidden elements: fall back to the DOM API, which is a no-op for hidden ones.
    await callOnElement(h, scrollingPage.scrollToCenter).catch((e) => ignore(e, 'scrolling is best effort: the actionability check says what is wrong'));
  }
}

/** Describes a DOM node without side effects: tag, type and a few attributes. */
export async function describeNode(h: ElementHandle): Promise<{ tag: string; attrs: Record<string, string> }> {
  try {
    const { node } = await h.session.send('DOM.describeNode', { backendNodeId: h.backendNodeId });
    const attrs: Record<string, string> = {};
    const a = node.attributes ?? [];
    for (let i = 0; i + 1 < a.length; i += 2) attrs[a[i]] = a[i + 1];
    return { tag: node.localName || node.nodeName.toLowerCase(), attrs };
  } catch (e) {
    throw stale(h, errorMessage(e));
  }
}
