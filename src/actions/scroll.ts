import { BrowserAgentError } from '../base/errors';
import type { ElementHandle } from '../snapshot/types';
import { ensureActionable } from './actionability';
import { fingerprintOf } from './click';
import { callOnElement, describeHandle, elementFrom, scrollIntoView } from './element';
import { mouseWheel } from './input';
import type { ActionOutcome, Scope } from './scopeTypes';

export type Direction = 'up' | 'down' | 'left' | 'right';

/** Position after the scroll has come to rest (two frames without movement, capped). */
const PAGE_POS = `new Promise((resolve) => {
  const read = () => [Math.round(scrollX), Math.round(scrollY)];
  let last = read().join(), same = 0, n = 0;
  const tick = () => {
    const now = read().join();
    same = now === last ? same + 1 : 0;
    last = now;
    if (same >= 2 || ++n > 60) {
      const d = document.scrollingElement || document.documentElement;
      resolve({ x: scrollX, y: scrollY, w: d.scrollWidth, h: d.scrollHeight, vw: innerWidth, vh: innerHeight });
    } else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})`;

const EL_POS = `(el) => new Promise((resolve) => {
  let last = '', same = 0, n = 0;
  const tick = () => {
    const now = el.scrollLeft + ',' + el.scrollTop;
    same = now === last ? same + 1 : 0;
    last = now;
    if (same >= 2 || ++n > 60) resolve({ x: el.scrollLeft, y: el.scrollTop, w: el.scrollWidth, h: el.scrollHeight, vw: el.clientWidth, vh: el.clientHeight });
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})`;

/** The element itself or its nearest ancestor (through shadow roots) that scrolls on the axis; null: the page. */
const SCROLL_AREA = `function (vertical) {
  for (let e = this; e && e.nodeType === 1; e = e.parentElement || (e.getRootNode() && e.getRootNode().host)) {
    if (e === document.documentElement || e === document.body) return null;
    const cs = getComputedStyle(e);
    const o = vertical ? cs.overflowY : cs.overflowX;
    if (/auto|scroll|overlay/.test(o) && (vertical ? e.scrollHeight > e.clientHeight : e.scrollWidth > e.clientWidth)) return e;
  }
  return null;
}`;

const AREA_LABEL = `(el) => { const role = el.getAttribute('role'); const name = (el.getAttribute('aria-label') || '').trim().slice(0, 60); return 'the scrollable ' + (role || el.localName) + (name ? ' "' + name + '"' : ''); }`;

async function scrollAreaOf(h: ElementHandle, vertical: boolean): Promise<{ handle: ElementHandle; self: boolean; label: string } | undefined> {
  const area = await elementFrom(h, SCROLL_AREA, [vertical]);
  if (!area) return undefined;
  if (area.backendNodeId === h.backendNodeId) return { handle: h, self: true, label: describeHandle(h) };
  return { handle: area, self: false, label: await callOnElement<string>(area, AREA_LABEL) };
}

interface Pos {
  x: number;
  y: number;
  w: number;
  h: number;
  vw: number;
  vh: number;
}

function where(p: Pos): string {
  const maxY = Math.max(0, p.h - p.vh);
  const pct = maxY ? Math.round((p.y / maxY) * 100) : 100;
  return `now at y=${Math.round(p.y)} of ${maxY} (${pct}%)${p.w > p.vw ? `, x=${Math.round(p.x)} of ${p.w - p.vw}` : ''}`;
}

async function pagePos(s: Scope): Promise<Pos> {
  const r = await s.page.send('Runtime.evaluate', { expression: PAGE_POS, awaitPromise: true, returnByValue: true }, 5000);
  return r.result.value as Pos;
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
    const before = area ? await callOnElement<Pos>(area.handle, EL_POS) : await pagePos(s);
    const amount = o.amount ?? Math.round((vertical ? before.vh : before.vw) * 0.8);
    await mouseWheel(s.page, point, direction === 'left' ? -amount : direction === 'right' ? amount : 0, direction === 'up' ? -amount : direction === 'down' ? amount : 0);
    const after = area ? await callOnElement<Pos>(area.handle, EL_POS) : await pagePos(s);
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
