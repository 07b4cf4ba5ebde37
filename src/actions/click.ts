import { BrowserAgentError } from '../base/errors';
import type { ElementHandle } from '../snapshot/types';
import { ensureActionable } from './actionability';
import { callOnElement, describeHandle, elementBox, type Point } from './element';
import { invalidFormNote } from './formCheck';
import { mouseClick, mouseMove, type MouseButton } from './input';
import type { ActionOutcome, Scope } from './scopeTypes';
import { confirmAtUse } from './atUse';
import { pageCall, pageFns } from '../page/fn';
import pointerFns from '../page/actions/pointer.ts?pagefn';
import { ignore } from '../base/ignore';

const pointerPage = pageFns<typeof import('../page/actions/pointer')>(pointerFns);

export interface ClickOptions {
  button?: MouseButton;
  doubleClick?: boolean;
  modifiers?: string[];
  holdMs?: number;
}

export function fingerprintOf(h: ElementHandle) {
  return { ref: h.ref, role: h.role, name: h.name, frame: h.frameId };
}

function verb(o: ClickOptions): string {
  const kind = o.doubleClick ? 'Double-clicked' : o.button === 'right' ? 'Right-clicked' : o.button === 'middle' ? 'Middle-clicked' : 'Clicked';
  const mods = o.modifiers?.length ? ` with ${o.modifiers.join('+')}` : '';
  const hold = o.holdMs ? ` (held ${o.holdMs} ms)` : '';
  return `${kind}${mods}${hold}`;
}

/**
 * Moves the pointer onto the element and re-aims if that moved it: leaving a hover menu elsewhere
 * can close it and shift the layout under the pointer.
 */
async function aim(s: Scope, h: ElementHandle, opts: { enabled?: boolean } = {}) {
  let target = await ensureActionable(s.tab, h, opts);
  await mouseMove(s.page, target.point);
  const box = await elementBox(s.tab, h).catch((e) => ignore(e, 'no box: the aim stays at the actionable point'));
  if (!target.viaLabel && box) {
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    if (Math.abs(cx - target.point.x) > 1 || Math.abs(cy - target.point.y) > 1) {
      target = await ensureActionable(s.tab, h, opts);
      await mouseMove(s.page, target.point);
    }
  }
  return target;
}

export async function clickElement(s: Scope, h: ElementHandle, o: ClickOptions = {}): Promise<ActionOutcome> {
  const { point, viaLabel } = await aim(s, h);
  const outcome = { text: `${verb(o)} ${describeHandle(h)}${viaLabel ? ' (through its label)' : ''}`, target: fingerprintOf(h) };
  // The policy rated the element the preview saw; what is under the pointer now is what gets clicked.
  await confirmAtUse(s.ctx, s.tab, point, { ifUnread: () => callOnElement(h, pointerPage.isConnected) });
  s.pending = outcome;
  await mouseClick(s.page, point, { button: o.button, clickCount: o.doubleClick ? 2 : 1, modifiers: o.modifiers, holdMs: o.holdMs });
  return !o.button || o.button === 'left' ? { ...outcome, afterSettle: () => invalidFormNote(h, false) } : outcome;
}

/** What is under a viewport point, descending into same-origin iframes and open shadow roots. */
export async function whatIsAt(s: Scope, p: Point): Promise<string> {
  const res = await s.page.send('Runtime.evaluate', { expression: pageCall(pointerPage.whatIsAt, p.x, p.y), returnByValue: true }, 5000);
  return String(res.result.value ?? 'unknown');
}

export async function assertInViewport(s: Scope, p: Point): Promise<void> {
  const m = await s.page.send('Page.getLayoutMetrics');
  const vw = m.cssLayoutViewport.clientWidth;
  const vh = m.cssLayoutViewport.clientHeight;
  if (!(p.x >= 0 && p.y >= 0 && p.x < vw && p.y < vh)) {
    throw new BrowserAgentError('INVALID_INPUT', `The point (${p.x}, ${p.y}) is outside the viewport (${vw}×${vh} CSS pixels).`, 'Coordinates are CSS pixels of the current viewport, as in browser_screenshot (scale back if the screenshot was scaled). Scroll first to reach other parts.');
  }
}

/** A click by coordinates for vision models; reports what it hit so a misclick is never silent. */
export async function clickAt(s: Scope, p: Point, o: ClickOptions = {}): Promise<ActionOutcome> {
  s.tab.assertNoDialog();
  await assertInViewport(s, p);
  const hit = await whatIsAt(s, p);
  await confirmAtUse(s.ctx, s.tab, p);
  s.pending = { text: `${verb(o)} at (${Math.round(p.x)}, ${Math.round(p.y)}), which hit ${hit}` };
  await mouseClick(s.page, p, { button: o.button, clickCount: o.doubleClick ? 2 : 1, modifiers: o.modifiers, holdMs: o.holdMs });
  return s.pending;
}

export async function hoverElement(s: Scope, h: ElementHandle): Promise<ActionOutcome> {
  await aim(s, h, { enabled: false });
  return { text: `Hovering over ${describeHandle(h)}`, target: fingerprintOf(h) };
}

export async function hoverAt(s: Scope, p: Point): Promise<ActionOutcome> {
  await assertInViewport(s, p);
  const hit = await whatIsAt(s, p);
  await mouseMove(s.page, p);
  return { text: `Hovering at (${Math.round(p.x)}, ${Math.round(p.y)}) over ${hit}` };
}
