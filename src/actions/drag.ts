import { ignore } from '../base/ignore';
import { confirmDropAtUse } from './atUse';
import type { Protocol } from 'devtools-protocol';
import type { ElementHandle } from '../snapshot/types';
import { sleep } from '../session/launcher';
import { ensureActionable } from './actionability';
import { callOnElement, describeHandle, elementBox, scrollIntoView, type Point } from './element';
import { pageCall, pageFns } from '../page/fn';
import pointerFns from '../page/actions/pointer.ts?pagefn';

const pointerPage = pageFns<typeof import('../page/actions/pointer')>(pointerFns);
import { assertInViewport, whatIsAt } from './click';
import type { ActionOutcome, Scope } from './scopeTypes';

export type DragEnd = { handle: ElementHandle } | { point: Point };

/** Where inside the target to drop: a named spot or an offset from its top-left corner. */
export type DropPosition = 'center' | 'top' | 'bottom' | 'left' | 'right' | 'before' | 'after' | { x: number; y: number };

function spotIn(box: { x: number; y: number; width: number; height: number }, pos: DropPosition = 'center'): Point {
  const edge = (len: number) => Math.min(5, len / 4);
  if (typeof pos === 'object') return { x: box.x + pos.x, y: box.y + pos.y };
  switch (pos) {
    case 'top':
    case 'before':
      return { x: box.x + box.width / 2, y: box.y + edge(box.height) };
    case 'bottom':
    case 'after':
      return { x: box.x + box.width / 2, y: box.y + box.height - edge(box.height) };
    case 'left':
      return { x: box.x + edge(box.width), y: box.y + box.height / 2 };
    case 'right':
      return { x: box.x + box.width - edge(box.width), y: box.y + box.height / 2 };
    default:
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  }
}

async function looksDraggable(s: Scope, from: DragEnd, at: Point): Promise<boolean> {
  if ('handle' in from) return callOnElement<boolean>(from.handle, pointerPage.looksDraggable).catch((e) => ignore(e, 'unknown counts as not draggable: a mouse drag', false));
  const r = await s.page.send('Runtime.evaluate', { expression: pageCall(pointerPage.looksDraggableAt, at.x, at.y), returnByValue: true }).catch((e) => ignore(e, 'unknown counts as not draggable: a mouse drag'));
  return r?.result.value === true;
}

function label(end: DragEnd, hit?: string): string {
  return 'handle' in end ? describeHandle(end.handle) : `(${Math.round(end.point.x)}, ${Math.round(end.point.y)})${hit ? ` on ${hit}` : ''}`;
}

/**
 * Drags like a hand: press on the source, move in steps, release on the target. Works for
 * mouse-event based dragging (sliders, sortable lists) and for HTML5 drag-and-drop: Chromium's
 * drag is intercepted (Input.setInterceptDrags) and replayed as drag events, because headless
 * has no OS drag loop.
 */
export async function drag(s: Scope, from: DragEnd, to: DragEnd, opts: { position?: DropPosition; steps?: number } = {}): Promise<ActionOutcome> {
  s.tab.assertNoDialog();
  let start: Point;
  let fromHit: string | undefined;
  if ('handle' in from) {
    start = (await ensureActionable(s.tab, from.handle)).point;
    // Moving the pointer there may close a hover menu elsewhere and shift the layout: re-aim.
    await s.page.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: start.x, y: start.y });
    start = (await ensureActionable(s.tab, from.handle)).point;
  } else {
    await assertInViewport(s, from.point);
    start = from.point;
    fromHit = await whatIsAt(s, start);
  }
  const page = s.page;
  let dragData: Protocol.Input.DragData | undefined;
  const offIntercept = page.on('Input.dragIntercepted', (p) => (dragData = p.data));
  await page.send('Input.setInterceptDrags', { enabled: true });
  try {
    await page.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: start.x, y: start.y });
    await page.send('Input.dispatchMouseEvent', { type: 'mousePressed', x: start.x, y: start.y, button: 'left', buttons: 1, clickCount: 1 });
    // Aim before the drag moves anything: a target that moves with it (a slider's own thumb, given with an
    // offset) is measured where the model saw it, not a few pixels on.
    let end: Point;
    let toHit: string | undefined;
    if ('handle' in to) {
      await scrollIntoView(to.handle);
      const box = await elementBox(s.tab, to.handle);
      if (!box) {
        const { point } = await ensureActionable(s.tab, to.handle, { hitTest: false, timeoutMs: 1000 });
        end = point;
      } else end = spotIn(box, opts.position);
    } else {
      await assertInViewport(s, to.point);
      end = to.point;
      toHit = await whatIsAt(s, end);
    }
    // A first small move starts the drag (most libraries have a few-pixel threshold).
    await page.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: start.x + 3, y: start.y + 3, button: 'left', buttons: 1 });
    await page.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: start.x + 6, y: start.y + 6, button: 'left', buttons: 1 });
    // An HTML5 drag is announced asynchronously: give a draggable source a moment to start one.
    if (!dragData && (await looksDraggable(s, from, start))) {
      for (let i = 0; i < 20 && !dragData; i++) await sleep(10);
    }
    const steps = Math.max(2, opts.steps ?? 12);
    let entered = false;
    for (let i = 1; i <= steps; i++) {
      const p = { x: start.x + ((end.x - start.x) * i) / steps, y: start.y + ((end.y - start.y) * i) / steps };
      if (dragData) {
        await page.send('Input.dispatchDragEvent', { type: entered ? 'dragOver' : 'dragEnter', x: p.x, y: p.y, data: dragData });
        entered = true;
      } else {
        await page.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: p.x, y: p.y, button: 'left', buttons: 1 });
      }
      if (i === 1 || i === steps) await sleep(16); // let frameworks see intermediate frames
    }
    // What is under the pointer now gets the drop: the policy checks it (a trash can is a delete); refused, the drag is cancelled.
    try {
      await confirmDropAtUse(s.ctx, s.tab, end);
    } catch (e) {
      if (dragData) await page.send('Input.dispatchDragEvent', { type: 'dragCancel', x: end.x, y: end.y, data: dragData }).catch((e) => ignore(e, 'undoing a refused drag is best effort; the refusal is rethrown'));
      await page.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: start.x, y: start.y, button: 'left', buttons: 1 }).catch((e) => ignore(e, 'undoing a refused drag is best effort; the refusal is rethrown'));
      await page.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x: start.x, y: start.y, button: 'left', buttons: 0, clickCount: 1 }).catch((e) => ignore(e, 'undoing a refused drag is best effort; the refusal is rethrown'));
      throw e;
    }
    if (dragData) {
      await page.send('Input.dispatchDragEvent', { type: 'dragOver', x: end.x, y: end.y, data: dragData });
      await page.send('Input.dispatchDragEvent', { type: 'drop', x: end.x, y: end.y, data: dragData });
    }
    await page.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x: end.x, y: end.y, button: 'left', buttons: 0, clickCount: 1 });
    const how = dragData ? 'drag-and-drop' : 'mouse drag';
    const pos = opts.position && 'handle' in to ? ` (${typeof opts.position === 'object' ? `offset ${opts.position.x},${opts.position.y}` : opts.position})` : '';
    return {
      text: `Dragged ${label(from, fromHit)} to ${label(to, toHit)}${pos} (${how})`,
      target: 'handle' in from ? { ref: from.handle.ref, role: from.handle.role, name: from.handle.name } : undefined,
    };
  } finally {
    offIntercept();
    await page.send('Input.setInterceptDrags', { enabled: false }).catch((e) => ignore(e, 'the tab may be gone; interception ends with it'));
  }
}
