import { ignore } from '../base/ignore';
import { BrowserAgentError } from '../base/errors';
import { sleep } from '../session/launcher';
import type { Tab } from '../session/tab';
import type { ElementHandle } from '../snapshot/types';
import { coverControls, disabledReason } from './blockers';
import { callOnElement, describeHandle, elementQuads, scrollIntoView, type Point } from './element';
import type { CheckResult } from '../page/actions/pointer';
import { pageCall, pageFns } from '../page/fn';
import pointerFns from '../page/actions/pointer.ts?pagefn';

const pointerPage = pageFns<typeof import('../page/actions/pointer')>(pointerFns);

export interface Actionable {
  point: Point;
  /** The element actually clicked (a label standing in for a hidden input). */
  viaLabel: boolean;
}

export interface ActionabilityOptions {
  /** Overall time to wait for the element to become actionable. */
  timeoutMs?: number;
  enabled?: boolean;
  hitTest?: boolean;
  /** Fail with "off-screen" when the element cannot be scrolled into the viewport (default: with hitTest). */
  onScreen?: boolean;
}

/**
 * Scrolls the element into view and waits (capped) until a person could act on it, then returns
 * the point to click in top-page coordinates. An overlay that stays fails fast with COVERED
 * naming the element that would get the click, instead of clicking it.
 */
export async function ensureActionable(tab: Tab, h: ElementHandle, opts: ActionabilityOptions = {}): Promise<Actionable> {
  const timeoutMs = opts.timeoutMs ?? 1500;
  const start = Date.now();
  let last: CheckResult = { state: 'ok' };
  for (let attempt = 0; ; attempt++) {
    tab.assertNoDialog();
    await scrollIntoView(h);
    last = await callOnElement<CheckResult>(h, pointerPage.checkActionable, [{ enabled: opts.enabled ?? true, hitTest: opts.hitTest ?? true, onScreen: opts.onScreen ?? opts.hitTest ?? true }], 5000);
    if (last.state === 'detached') break;
    if (last.state === 'ok') {
      const point = await pointFor(tab, h, !!last.useLabel, last.at);
      if (!point) last = { state: 'hidden' };
      else {
        const cover = last.inFrame && (opts.hitTest ?? true) ? await topHit(tab, point) : '';
        if (!cover) return { point, viaLabel: !!last.useLabel };
        last = { state: 'covered', hit: cover };
      }
    }
    const elapsed = Date.now() - start;
    // An overlay that did not fade within a second is there to stay (a banner, a modal).
    const limit = last.state === 'covered' ? Math.min(1000, timeoutMs) : timeoutMs;
    if (elapsed >= limit) break;
    await sleep(attempt < 3 ? 50 : 150);
  }
  const what = `[${h.ref}] ${describeHandle(h)}`;
  switch (last.state) {
    case 'detached':
      throw new BrowserAgentError('STALE_REF', `The element ${what} is no longer in the page.`, 'Take a new browser_snapshot and use a current ref.');
    case 'hidden':
      throw new BrowserAgentError('NOT_INTERACTABLE', `The element ${what} is not visible.`, 'It may be in a closed menu, tab or collapsed section: open that first, or scroll/wait with browser_wait.');
    case 'disabled':
      throw new BrowserAgentError('NOT_INTERACTABLE', `The element ${what} is disabled.${await disabledReason(h)}`, 'Fill in the required fields or complete the previous step so it becomes enabled.');
    case 'offscreen':
      throw new BrowserAgentError('NOT_INTERACTABLE', `The element ${what} is off-screen (outside the visible page, and scrolling does not bring it in).`, 'It may be in a closed drawer, panel or carousel slide: open or slide to it first (the control that shows it), then act.');
    case 'moving':
      throw new BrowserAgentError('NOT_INTERACTABLE', `The element ${what} keeps moving (animating).`, 'Wait with browser_wait and try again, or click it by x/y from a screenshot.');
    case 'covered':
      throw new BrowserAgentError('COVERED', `The element ${what} is covered by ${last.hit}, which would receive the click instead.${await coverControls(tab, h).catch((e) => ignore(e, "the overlay's controls are a hint; the error stands without them", ''))}`, 'Dismiss the overlay first with one of its controls (a consent banner: accept or reject; a popup: its close button) or Escape, then act again; or scroll the element clear of it.');
    default:
      throw new BrowserAgentError('NOT_INTERACTABLE', `The element ${what} cannot be acted on.`);
  }
}

async function topHit(tab: Tab, p: Point): Promise<string> {
  const page = await tab.session();
  const r = await page.send('Runtime.evaluate', { expression: pageCall(pointerPage.topHit, p.x, p.y), returnByValue: true }, 5000).catch((e) => ignore(e, 'the top page did not answer: no cover found there'));
  return String(r?.result.value ?? '');
}

async function pointFor(tab: Tab, h: ElementHandle, viaLabel: boolean, at?: [number, number]): Promise<Point | undefined> {
  let target = h;
  if (viaLabel) {
    const objectId = await callLabelObject(h);
    if (!objectId) return undefined;
    const { node } = await h.session.send('DOM.describeNode', { objectId });
    h.session.send('Runtime.releaseObject', { objectId }).catch((e) => ignore(e, 'release: the object dies with its context anyway'));
    target = { ...h, backendNodeId: node.backendNodeId };
  }
  const quads = await elementQuads(tab, target);
  if (!quads.length) return undefined;
  const q = quads[0];
  if (at) {
    // Corners top-left, top-right, bottom-right, bottom-left: along the top edge by fx, down the left edge by fy.
    const [fx, fy] = at;
    return { x: q[0] + fx * (q[2] - q[0]) + fy * (q[6] - q[0]), y: q[1] + fx * (q[3] - q[1]) + fy * (q[7] - q[1]) };
  }
  return { x: (q[0] + q[2] + q[4] + q[6]) / 4, y: (q[1] + q[3] + q[5] + q[7]) / 4 };
}

async function callLabelObject(h: ElementHandle): Promise<string | undefined> {
  const { object } = await h.session.send('DOM.resolveNode', { backendNodeId: h.backendNodeId });
  const res = await h.session.send('Runtime.callFunctionOn', {
    objectId: object.objectId,
    functionDeclaration: pointerPage.visibleLabel,
  });
  h.session.send('Runtime.releaseObject', { objectId: object.objectId! }).catch((e) => ignore(e, 'release: the object dies with its context anyway'));
  return res.result.objectId;
}
