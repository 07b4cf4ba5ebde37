import { actWorld } from './actWorld';
import { callOnElement } from './element';
import type { CdpSession } from '../session/cdp';
import type { Tab } from '../session/tab';
import type { ElementHandle } from '../snapshot/types';
import type { ActionPreview, ElementFacts } from '../contract/types';
import { ELEMENT_FACTS_FN } from './elementFacts';

export interface Point {
  x: number;
  y: number;
}

/**
 * In the isolated world of a frame: what a click at viewport point (x, y) reaches (elementFromPoint, through
 * open shadow roots and same-origin iframes), as facts of its nearest actionable element; or, when the point
 * is over an iframe this document cannot look into, where that is (document coordinates for CDP's hit test,
 * and the point inside the iframe's viewport).
 */
const HIT_FN = `(x, y) => {
  let doc = document, px = x, py = y;
  for (let depth = 0; depth < 8; depth++) {
    let root = doc, hit = null;
    for (let i = 0; i < 32; i++) {
      const h = root.elementFromPoint(px, py);
      if (!h || h === hit) break;
      hit = h;
      if (h.shadowRoot) root = h.shadowRoot; else break;
    }
    if (!hit) return { none: true };
    if (hit.localName === 'iframe' || hit.localName === 'frame') {
      const r = hit.getBoundingClientRect();
      const ix = px - r.x - hit.clientLeft, iy = py - r.y - hit.clientTop;
      let inner = null;
      try { inner = hit.contentDocument; } catch {}
      if (!inner) {
        const w = doc.defaultView;
        return { frame: { docX: px + w.scrollX, docY: py + w.scrollY, x: ix, y: iy } };
      }
      doc = inner; px = ix; py = iy;
      continue;
    }
    return { facts: (${ELEMENT_FACTS_FN})(hit, true) };
  }
  return { none: true };
}`;

interface HitResult {
  none?: boolean;
  facts?: ElementFacts | null;
  frame?: { docX: number; docY: number; x: number; y: number };
}

/**
 * What a click at a viewport point would act on, as a policy target: the facts of the nearest actionable
 * element the browser's hit test finds there, in whichever frame (out-of-process iframes through their own
 * sessions). One round trip for a point in the page itself. Read-only; throws when the page does not answer.
 */
export async function targetAt(tab: Tab, point: Point): Promise<NonNullable<ActionPreview['target']> | undefined> {
  let session: CdpSession = await tab.session();
  let frameId = tab.targetId;
  let p = point;
  for (let depth = 0; depth < 6; depth++) {
    const contextId = await actWorld(session, frameId);
    const res = await session.send('Runtime.evaluate', { expression: `(${HIT_FN})(${p.x}, ${p.y})`, contextId, returnByValue: true }, 3000);
    if (res.exceptionDetails) throw new Error(res.exceptionDetails.exception?.description ?? res.exceptionDetails.text);
    const r = res.result.value as HitResult;
    if (r.facts) return asTarget(r.facts);
    if (!r.frame) return undefined;
    // An iframe of another origin: CDP's hit test (document coordinates) names its owner, or the node inside it.
    const hit = await session.send('DOM.getNodeForLocation', { x: Math.round(r.frame.docX), y: Math.round(r.frame.docY), includeUserAgentShadowDOM: false, ignorePointerEventsNone: true }, 3000);
    const child = await childFrameOwned(tab, session, hit.backendNodeId);
    if (child) {
      session = child.session;
      frameId = child.targetId;
      p = { x: r.frame.x, y: r.frame.y };
      continue;
    }
    // An in-process iframe: the hit test went inside it.
    const h: ElementHandle = { ref: '', role: '', name: '', session, frameId: hit.frameId, backendNodeId: hit.backendNodeId };
    const facts = await callOnElement<ElementFacts | null>(h, ELEMENT_FACTS_FN, [true], 3000);
    return facts ? asTarget(facts) : undefined;
  }
  return undefined;
}

async function childFrameOwned(tab: Tab, parent: CdpSession, backendNodeId: number) {
  for (const f of tab.frameSessions()) {
    if (f.parentSessionId !== parent.id) continue;
    const owner = await parent.send('DOM.getFrameOwner', { frameId: f.targetId }, 3000).catch(() => undefined);
    if (owner?.backendNodeId === backendNodeId) return f;
  }
  return undefined;
}

function asTarget(facts: ElementFacts): NonNullable<ActionPreview['target']> {
  return { tag: facts.tag, type: facts.type, inputType: facts.type, autocomplete: facts.autocomplete, inForm: facts.inForm, frame: facts.inFrame ? facts.frameUrl : undefined, facts };
}

/** The texts and kinds the policy reads, to tell whether the element at use is what was rated. */
export function factsSignature(t: ActionPreview['target']): string {
  const f = t?.facts;
  if (!f) return '';
  return JSON.stringify([f.tag, f.type, f.visible, f.labels, f.drawn, f.svg, f.hints, f.href, f.frameUrl, f.submitsForm?.buttons]);
}
