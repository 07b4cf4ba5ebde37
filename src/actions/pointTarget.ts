import { actWorld } from './actWorld';
import { callOnElement } from './element';
import type { CdpSession } from '../session/cdp';
import type { Tab } from '../session/tab';
import type { ElementHandle } from '../snapshot/types';
import type { ActionPreview, ElementFacts } from '../contract/types';
import type { HitResult } from '../page/actions/pointer';
import { pageCall, pageFns } from '../page/fn';
import pointerFns from '../page/actions/pointer.ts?pagefn';
import factsFns from '../page/actions/elementFacts.ts?pagefn';
import { ignore } from '../base/ignore';

const pointerPage = pageFns<typeof import('../page/actions/pointer')>(pointerFns);
const factsPage = pageFns<typeof import('../page/actions/elementFacts')>(factsFns);

export interface Point {
  x: number;
  y: number;
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
    const res = await session.send('Runtime.evaluate', { expression: pageCall(pointerPage.hitFacts, p.x, p.y), contextId, returnByValue: true }, 3000);
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
    const facts = await callOnElement<ElementFacts | null>(h, factsPage.elementFacts, [true], 3000);
    return facts ? asTarget(facts) : undefined;
  }
  return undefined;
}

async function childFrameOwned(tab: Tab, parent: CdpSession, backendNodeId: number) {
  for (const f of tab.frameSessions()) {
    if (f.parentSessionId !== parent.id) continue;
    const owner = await parent.send('DOM.getFrameOwner', { frameId: f.targetId }, 3000).catch((e) => ignore(e, 'a frame that does not answer is not the owner'));
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
