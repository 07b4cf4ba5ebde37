/**
 * What a pointer at a point reaches, and whether an element is ready for it (actions/actionability.ts,
 * actions/click.ts, actions/pointTarget.ts, actions/drag.ts). One hit test for all: src/page/hit.ts.
 */
import { loose, holds } from '../dom';
import { elementAt, hitThroughFrames } from '../hit';
import { elementFacts, type ElementFacts } from './elementFacts';

const oneLine = (s: string) => s.trim().replace(/\s+/g, ' ');
const cut60 = (t: string) => (t.length > 60 ? t.slice(0, 57) + '…' : t);

export interface HitResult {
  none?: boolean;
  facts?: ElementFacts | null;
  frame?: { docX: number; docY: number; x: number; y: number };
}

/**
 * In the isolated world of a frame: what a click at viewport point (x, y) reaches (through open shadow roots
 * and same-origin iframes), as facts of its nearest actionable element; or, when the point is over an iframe
 * this document cannot look into, where that is (document coordinates for CDP's hit test, and the point inside
 * the iframe's viewport).
 */
export function hitFacts(x: number, y: number): HitResult {
  const r = hitThroughFrames(x, y, 8);
  if ('el' in r) return { facts: elementFacts(r.el, true) };
  if ('crossOrigin' in r) return { frame: { docX: r.docX, docY: r.docY, x: r.x, y: r.y } };
  return { none: true };
}

/** What is under a viewport point, descending into same-origin iframes and open shadow roots, in words. */
export function whatIsAt(x: number, y: number): string {
  const describe = (e: Element) => {
    const n = loose(e)!;
    let s = n.localName;
    if (n.id) s += '#' + n.id;
    const role = n.getAttribute('role');
    if (role) s += ' role=' + role;
    if (n.type && n.localName === 'input') s += ' type=' + n.type;
    const t = oneLine(n.getAttribute('aria-label') || n.innerText || n.value || n.getAttribute('alt') || n.getAttribute('title') || '');
    if (t) s += ' "' + cut60(t) + '"';
    return s;
  };
  const r = hitThroughFrames(x, y, 10);
  const path = r.frames.map((f) => 'iframe ' + (f.src || ''));
  if ('empty' in r) return path.length ? path.join(' › ') + ' › (empty area)' : 'nothing (empty area)';
  if ('crossOrigin' in r) return path.concat('cross-origin iframe ' + (r.crossOrigin.src || '')).join(' › ');
  if ('tooDeep' in r) return path.join(' › ');
  const actionable = r.el.closest('a,button,input,select,textarea,label,summary,[role],[onclick],[tabindex],[contenteditable=""],[contenteditable=true]');
  path.push(describe(actionable && actionable !== r.doc.body ? actionable : r.el));
  return path.join(' › ');
}

/** In the top page: what a click at the point would hit, unless it is an iframe (checked inside). */
export function topHit(x: number, y: number): string {
  const hit = loose(elementAt(document, x, y));
  if (!hit || hit.localName === 'iframe' || hit.localName === 'frame') return '';
  const s = hit.localName + (hit.id ? '#' + hit.id : '');
  const t = oneLine(hit.innerText || '');
  return s + (t ? ' "' + cut60(t) + '"' : '');
}

export type CheckState = 'ok' | 'detached' | 'hidden' | 'disabled' | 'covered' | 'moving' | 'offscreen';
export interface CheckResult {
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

/**
 * Runs in the element's own frame: attached, visible, enabled, stable across two animation
 * frames, and the element (or its label, or something inside it) is what a click at its center
 * would hit — through open shadow roots, and the closed ones on the way to it.
 */
export async function checkActionable(node: Node, opts: { enabled: boolean; hitTest: boolean; onScreen: boolean }): Promise<CheckResult> {
  const describe = (e: Node | null) => {
    const n = loose(e as Element | null);
    if (!n || n.nodeType !== 1) return 'nothing';
    let s = n.localName;
    if (n.id) s += '#' + n.id;
    else if (typeof n.className === 'string' && n.className.trim()) s += '.' + n.className.trim().split(/\s+/).slice(0, 2).join('.');
    const role = n.getAttribute('role');
    if (role) s += ' role=' + role;
    const t = oneLine(n.getAttribute('aria-label') || n.innerText || n.value || '');
    if (t) s += ' "' + cut60(t) + '"';
    return s;
  };
  if (!node.isConnected) return { state: 'detached' };
  const el = loose(node.nodeType !== 1 ? node.parentElement : (node as Element))!;
  const visible = (e: Element) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && (!e.checkVisibility || e.checkVisibility({ visibilityProperty: true }));
  };
  let target: Element = el;
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
  const raf = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
  const r0 = target.getBoundingClientRect();
  await raf();
  await raf();
  const r1 = target.getBoundingClientRect();
  if (Math.abs(r0.x - r1.x) > 0.5 || Math.abs(r0.y - r1.y) > 0.5 || Math.abs(r0.width - r1.width) > 0.5 || Math.abs(r0.height - r1.height) > 0.5) return { state: 'moving' };
  // Scrolled into view as far as it goes and still outside the viewport: a drawer or slide moved off-screen.
  if (opts.onScreen && (r1.right <= 0 || r1.bottom <= 0 || r1.left >= innerWidth || r1.top >= innerHeight)) return { state: 'offscreen' };
  if (!opts.hitTest) return { state: 'ok', useLabel };
  // Closed shadow roots on the way to the target: the page cannot see them, but we hold the target.
  const closed = new Map<Element, ShadowRoot>();
  for (let n = target.getRootNode() as ShadowRoot; n && n.host; n = n.host.getRootNode() as ShadowRoot) closed.set(n.host, n);
  const hitAt = (x: number, y: number) => elementAt(document, x, y, (h) => h.shadowRoot || closed.get(h));
  const reaches = (hit: Element) => holds(target, hit) || holds(hit, target) && hit.localName === 'label' || !!(hit.closest && hit.closest('label') && hit.closest('label')!.control === el);
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
}

/** `this`: a field whose box is hidden; its first label that shows, or null. */
export function visibleLabel(this: Element): HTMLLabelElement | null {
  const labels = loose(this)!.labels;
  return labels && [...labels].find((l) => l.getBoundingClientRect().width > 0) || null;
}

/** Whether a drag from `el` looks like one the page handles (draggable, a link, an image). */
export function looksDraggable(el: Element | null): boolean {
  return !!(el && el.closest && el.closest('[draggable=true], a[href], img'));
}

/** looksDraggable for what is at viewport point (x, y) of the document (shadow roots not entered). */
export function looksDraggableAt(x: number, y: number): boolean {
  return looksDraggable(document.elementFromPoint(x, y));
}

/** Whether the element is still in its document. */
export function isConnected(el: Node): boolean {
  return el.isConnected;
}
