import { BrowserAgentError } from '../base/errors';
import { sleep } from '../session/launcher';
import type { Tab } from '../session/tab';
import type { ElementHandle } from '../snapshot/types';
import { coverControls, disabledReason } from './blockers';
import { callOnElement, describeHandle, elementQuads, scrollIntoView, type Point } from './element';

type CheckState = 'ok' | 'detached' | 'hidden' | 'disabled' | 'covered' | 'moving' | 'offscreen';
interface CheckResult {
  state: CheckState;
  /** For `covered`: what would receive the click instead. */
  hit?: string;
  /** For hidden checkboxes/radios/file inputs styled through their label: act on the label. */
  useLabel?: boolean;
  /** The element lives in an iframe: the top page must also be checked for overlays. */
  inFrame?: boolean;
  /** Where in its box to click (fractions of width and height) when its center is covered; else the center. */
  at?: [number, number];
}

/** In the top page: what a click at the point would hit, unless it is an iframe (checked inside). */
const TOP_HIT = `(x, y) => {
  let root = document, hit = null;
  for (let i = 0; i < 32; i++) {
    const h = root.elementFromPoint(x, y);
    if (!h || h === hit) break;
    hit = h;
    if (h.shadowRoot) root = h.shadowRoot; else break;
  }
  if (!hit || hit.localName === 'iframe' || hit.localName === 'frame') return '';
  let s = hit.localName + (hit.id ? '#' + hit.id : '');
  const t = (hit.innerText || '').trim().replace(/\\s+/g, ' ');
  return s + (t ? ' "' + (t.length > 60 ? t.slice(0, 57) + '…' : t) + '"' : '');
}`;

/**
 * Runs in the element's own frame: attached, visible, enabled, stable across two animation
 * frames, and the element (or its label, or something inside it) is what a click at its center
 * would hit — through open shadow roots.
 */
const CHECK = `async (el, opts) => {
  const describe = (n) => {
    if (!n || n.nodeType !== 1) return 'nothing';
    let s = n.localName;
    if (n.id) s += '#' + n.id;
    else if (typeof n.className === 'string' && n.className.trim()) s += '.' + n.className.trim().split(/\\s+/).slice(0, 2).join('.');
    const role = n.getAttribute('role');
    if (role) s += ' role=' + role;
    const t = (n.getAttribute('aria-label') || n.innerText || n.value || '').trim().replace(/\\s+/g, ' ');
    if (t) s += ' "' + (t.length > 60 ? t.slice(0, 57) + '…' : t) + '"';
    return s;
  };
  if (!el.isConnected) return { state: 'detached' };
  if (el.nodeType !== 1) el = el.parentElement;
  const visible = (e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && (!e.checkVisibility || e.checkVisibility({ visibilityProperty: true }));
  };
  let target = el;
  let useLabel = false;
  if (!visible(el)) {
    const label = el.labels && [...el.labels].find(visible);
    if (!label) return { state: 'hidden' };
    target = label;
    useLabel = true;
  }
  if (opts.enabled) {
    const disabled = el.disabled === true || el.closest('fieldset:disabled') && el.matches('input,select,textarea,button') || el.getAttribute('aria-disabled') === 'true';
    if (disabled) return { state: 'disabled' };
  }
  const raf = () => new Promise((r) => requestAnimationFrame(() => r()));
  const r0 = target.getBoundingClientRect();
  await raf();
  await raf();
  const r1 = target.getBoundingClientRect();
  if (Math.abs(r0.x - r1.x) > 0.5 || Math.abs(r0.y - r1.y) > 0.5 || Math.abs(r0.width - r1.width) > 0.5 || Math.abs(r0.height - r1.height) > 0.5) return { state: 'moving' };
  // Scrolled into view as far as it goes and still outside the viewport: a drawer or slide moved off-screen.
  if (opts.onScreen && (r1.right <= 0 || r1.bottom <= 0 || r1.left >= innerWidth || r1.top >= innerHeight)) return { state: 'offscreen' };
  if (!opts.hitTest) return { state: 'ok', useLabel };
  // Closed shadow roots on the way to the target: the page cannot see them, but we hold the target.
  const closed = new Map();
  for (let n = target.getRootNode(); n && n.host; n = n.host.getRootNode()) closed.set(n.host, n);
  const hitAt = (x, y) => {
    let root = document;
    let hit = null;
    for (let i = 0; i < 32; i++) {
      const h = root.elementFromPoint(x, y);
      if (!h || h === hit) break;
      hit = h;
      const sr = h.shadowRoot || closed.get(h);
      if (sr) root = sr; else break;
    }
    return hit;
  };
  const within = (n, container) => {
    for (let c = n; c; c = c.parentNode || c.host) if (c === container) return true;
    return false;
  };
  const reaches = (hit) => within(hit, target) || within(target, hit) && hit.localName === 'label' || !!(hit.closest && hit.closest('label') && hit.closest('label').control === el);
  const inFrame = window !== window.top;
  const hit = hitAt(r1.x + r1.width / 2, r1.y + r1.height / 2);
  if (!hit || reaches(hit)) return { state: 'ok', useLabel, inFrame };
  // The center is under something (a fixed bar over the lower half): a part of the element that shows takes
  // the click, as a person would aim at what they see.
  for (const fy of [0.5, 0.25, 0.75, 0.1, 0.9]) {
    for (const fx of [0.5, 0.25, 0.75, 0.1, 0.9]) {
      const px = r1.x + r1.width * fx, py = r1.y + r1.height * fy;
      if (px < 0 || py < 0 || px >= innerWidth || py >= innerHeight) continue;
      const h = hitAt(px, py);
      if (h && reaches(h)) return { state: 'ok', useLabel, inFrame, at: [fx, fy] };
    }
  }
  return { state: 'covered', hit: describe(hit) };
}`;

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
    last = await callOnElement<CheckResult>(h, CHECK, [{ enabled: opts.enabled ?? true, hitTest: opts.hitTest ?? true, onScreen: opts.onScreen ?? opts.hitTest ?? true }], 5000);
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
      throw new BrowserAgentError('COVERED', `The element ${what} is covered by ${last.hit}, which would receive the click instead.${await coverControls(tab, h).catch(() => '')}`, 'Dismiss the overlay first with one of its controls (a consent banner: accept or reject; a popup: its close button) or Escape, then act again; or scroll the element clear of it.');
    default:
      throw new BrowserAgentError('NOT_INTERACTABLE', `The element ${what} cannot be acted on.`);
  }
}

async function topHit(tab: Tab, p: Point): Promise<string> {
  const page = await tab.session();
  const r = await page.send('Runtime.evaluate', { expression: `(${TOP_HIT})(${p.x}, ${p.y})`, returnByValue: true }, 5000).catch(() => undefined);
  return String(r?.result.value ?? '');
}

async function pointFor(tab: Tab, h: ElementHandle, viaLabel: boolean, at?: [number, number]): Promise<Point | undefined> {
  let target = h;
  if (viaLabel) {
    const objectId = await callLabelObject(h);
    if (!objectId) return undefined;
    const { node } = await h.session.send('DOM.describeNode', { objectId });
    h.session.send('Runtime.releaseObject', { objectId }).catch(() => {});
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
    functionDeclaration: 'function () { return this.labels && [...this.labels].find((l) => l.getBoundingClientRect().width > 0) || null; }',
  });
  h.session.send('Runtime.releaseObject', { objectId: object.objectId! }).catch(() => {});
  return res.result.objectId;
}
