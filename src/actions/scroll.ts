import { BrowserAgentError } from '../base/errors';
import type { ElementHandle } from '../snapshot/types';
import { ensureActionable } from './actionability';
import { fingerprintOf } from './click';
import { callOnElement, describeHandle, elementFrom, scrollIntoView } from './element';
import { mouseWheel } from './input';
import type { ActionOutcome, Scope } from './scopeTypes';
import { pageCall, pageFns } from '../page/fn';
import scrollingFns from '../page/actions/scrolling.ts?pagefn';
import type { ScrollPos } from '../page/actions/scrolling';

const scrollingPage = pageFns<typeof import('../page/actions/scrolling')>(scrollingFns);

export type Direction = 'up' | 'down' | 'left' | 'right';

async function scrollAreaOf(h: ElementHandle, vertical: boolean): Promise<{ handle: ElementHandle; self: boolean; label: string } | undefined> {
  const area = await elementFrom(h, scrollingPage.scrollArea, [vertical]);
  if (!area) return undefined;
  if (area.backendNodeId === h.backendNodeId) return { handle: h, self: true, label: describeHandle(h) };
  return { handle: area, self: false, label: await callOnElement<string>(area, scrollingPage.areaLabel) };
}

function where(p: ScrollPos): string {
  const maxY = Math.max(0, p.h - p.vh);
  const pct = maxY ? Math.round((p.y / maxY) * 100) : 100;
  return `now at y=${Math.round(p.y)} of ${maxY} (${pct}%)${p.w > p.vw ? `, x=${Math.round(p.x)} of ${p.w - p.vw}` : ''}`;
}

async function pagePos(s: Scope): Promise<ScrollPos> {
  const r = await s.page.send('Runtime.evaluate', { expression: pageCall(scrollingPage.pagePos), awaitPromise: true, returnByValue: true }, 5000);
  return r.result.value as ScrollPos;
}

/** Scrolls with the mouse wheel (real input, so scroll listeners and lazy loading react). */
export async function scroll(s: Scope, o: { direction?: Direction; amount?: number; handle?: ElementHandle }): Promise<ActionOutcome> {
  s.tab.assertNoDialog();
  const h = o.handle;
  if (h && !o.direction) {
    await scrollIntoView(h);
    const p = await pagePos(s);
    return { text: `Scrolled ${describeHandle(h)} into view; page ${where(p)}`, target: fingerprintOf(h) };
  }
  const direction = o.direction ?? 'down';
  if (h) {
    const { point } = await ensureActionable(s.tab, h, { enabled: false, hitTest: false });
    // The wheel scrolls the area around the element (a row of a virtualized list scrolls its list, and may be
    // gone afterwards): measure that area, not the element.
    const vertical = direction === 'up' || direction === 'down';
    const area = await scrollAreaOf(h, vertical);
    const before = area ? await callOnElement<ScrollPos>(area.handle, scrollingPage.elementPos) : await pagePos(s);
    const amount = o.amount ?? Math.round((vertical ? before.vh : before.vw) * 0.8);
    await mouseWheel(s.page, point, direction === 'left' ? -amount : direction === 'right' ? amount : 0, direction === 'up' ? -amount : direction === 'down' ? amount : 0);
    const after = area ? await callOnElement<ScrollPos>(area.handle, scrollingPage.elementPos) : await pagePos(s);
    const moved = after.x !== before.x || after.y !== before.y;
    const what = !area ? `the page (around ${describeHandle(h)})` : area.self ? describeHandle(h) : `${area.label} around ${describeHandle(h)}`;
    return { text: moved ? `Scrolled ${what} ${direction} by ${amount} px; it is ${where(after)}` : `${what} did not scroll ${direction} (already at the end, or not scrollable); it is ${where(after)}`, target: fingerprintOf(h) };
  }
  const before = await pagePos(s);
  const amount = o.amount ?? Math.round((direction === 'up' || direction === 'down' ? before.vh : before.vw) * 0.8);
  if (!(amount > 0)) throw new BrowserAgentError('INVALID_INPUT', 'The scroll amount must be a positive number of pixels.');
  const center = { x: Math.floor(before.vw / 2), y: Math.floor(before.vh / 2) };
  await mouseWheel(s.page, center, direction === 'left' ? -amount : direction === 'right' ? amount : 0, direction === 'up' ? -amount : direction === 'down' ? amount : 0);
  const after = await pagePos(s);
  const moved = after.x !== before.x || after.y !== before.y;
  return { text: moved ? `Scrolled the page ${direction} by ${amount} px; ${where(after)}` : `The page did not scroll ${direction} (already at the end, or the area under the center scrolls separately); ${where(after)}` };
}
