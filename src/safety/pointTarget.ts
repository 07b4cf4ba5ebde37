import { callOnElement } from '../actions/element';
import type { CdpSession } from '../session/cdp';
import type { Tab } from '../session/tab';
import type { ElementHandle } from '../snapshot/types';
import type { ActionPreview } from '../tools/types';
import { ELEMENT_FACTS_FN, type ElementFacts } from './elementFacts';

export interface Point {
  x: number;
  y: number;
}

/**
 * The element a click at a viewport point reaches — what the browser's own hit test says, descending into
 * out-of-process iframes (in-process ones it descends itself). Read-only.
 */
export async function elementAt(tab: Tab, point: Point): Promise<ElementHandle | undefined> {
  let session: CdpSession = await tab.session();
  let p = point;
  for (let depth = 0; depth < 6; depth++) {
    const hit = await session
      .send('DOM.getNodeForLocation', { x: Math.round(p.x), y: Math.round(p.y), includeUserAgentShadowDOM: false, ignorePointerEventsNone: true }, 3000)
      .catch(() => undefined);
    if (!hit) return undefined;
    // An out-of-process iframe is one node here; its content is hit-tested in its own session.
    const child = await childFrameOwned(tab, session, hit.backendNodeId);
    if (child) {
      const { model } = await session.send('DOM.getBoxModel', { backendNodeId: hit.backendNodeId }, 3000);
      const xs = [model.content[0], model.content[2], model.content[4], model.content[6]];
      const ys = [model.content[1], model.content[3], model.content[5], model.content[7]];
      p = { x: p.x - Math.min(...xs), y: p.y - Math.min(...ys) };
      session = child.session;
      continue;
    }
    return { ref: '', role: '', name: '', session, frameId: hit.frameId, backendNodeId: hit.backendNodeId };
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

/** What a click at the point would act on, as a policy target: the nearest actionable element's facts. */
export async function targetAt(tab: Tab, point: Point): Promise<NonNullable<ActionPreview['target']> | undefined> {
  const h = await elementAt(tab, point);
  if (!h) return undefined;
  const facts = await callOnElement<ElementFacts | null>(h, ELEMENT_FACTS_FN, [true], 3000).catch(() => null);
  if (!facts) return undefined;
  return { tag: facts.tag, type: facts.type, inputType: facts.type, autocomplete: facts.autocomplete, inForm: facts.inForm, frame: facts.inFrame ? facts.frameUrl : undefined, facts };
}

/** The texts and kinds the policy reads, to tell whether the element at use is what was rated. */
export function factsSignature(t: ActionPreview['target']): string {
  const f = t?.facts;
  if (!f) return '';
  return JSON.stringify([f.tag, f.type, f.visible, f.labels, f.drawn, f.svg, f.hints, f.href, f.frameUrl, f.submitsForm?.buttons]);
}
