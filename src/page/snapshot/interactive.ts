// Which elements the walk gives a ref, and with what role: an explicit interactive role, a native control,
// a label drawing an invisible control, an editing host, then weaker signals (a listener, a pointer
// cursor, a tabindex, a hover menu, a drag handle) on leaf-ish elements only; and the items of lists that
// handle their rows' clicks themselves.
import { INTERACTIVE_ROLES, shadowOf, explicitRole, isWeakRole, labelsOf, nativeRole } from './roles';
import { isIconButton, isListLike, markItems } from './items';
import { isDoubleClickable, isDragHandle, isEditCell } from './gestures';
import type { Read, Run } from './runState';
import { parentEl } from './tree';
import { S } from './world';

/** A control inside any of these is a ref of its own even in a clickable card (the card then is not one). */
const STRONG = 'a[href],button,input:not([type=hidden]),select,textarea,[role=button],[role=link],[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=option],[role=switch],[role=textbox],[role=combobox],[contenteditable=""],[contenteditable=true]';

/** The role an element gets (null: none), the control a label stands for, and whether the ref is a native control's. */
export interface Rated {
  role: string | null;
  control?: Element;
  nativeRef: boolean;
}

/**
 * `inInteractive`: 0 outside controls; 1 inside a container rated clickable only by a weak signal or
 * an ARIA role (descendants with their own listener or tabindex, and items, still get refs); 2 inside a
 * native control (a button's spans are the button).
 */
export function rate(w: Run, el: Element, tag: string, st: CSSStyleDeclaration, r: DOMRect, cursor: string, parentCursor: string, inInteractive: 0 | 1 | 2): Rated {
  let control: Element | undefined;
  const er = explicitRole(el);
  const nr = nativeRole(el);
  let role = er && INTERACTIVE_ROLES.has(er) ? er : nr;
  const native = !!nr;
  if (tag === 'input' && (el as HTMLInputElement).type !== 'file' && st.opacity === '0') {
    // Invisible (opacity 0) checkbox/radio drawn by its label: the label gets the ref instead.
    const labels = labelsOf(el);
    if (labels && labels.length && Array.from(labels).some((l) => l.getBoundingClientRect().width > 0)) role = null;
  }
  if (!role && tag === 'label') {
    const c = (el as HTMLLabelElement).control;
    if (c && !isRendered(c, w.preread)) {
      role = nativeRole(c);
      control = c;
    }
  }
  if (!role && (el as HTMLElement).isContentEditable && !(parentEl(el) as HTMLElement | null)?.isContentEditable) role = 'textbox';
  const focusable = el.hasAttribute('tabindex') && (el as HTMLElement).tabIndex >= 0;
  const pointer = cursor === 'pointer' && parentCursor !== 'pointer';
  const drag = isDragHandle(el, cursor, parentCursor);
  const clicky = S.click.has(el) || el.hasAttribute('onclick') || drag || isDoubleClickable(el);
  if (role && !native && isWeakRole(role) && !focusable && !clicky && !pointer) role = null;
  if (!role) role = w.itemState.role.get(el) ?? null;
  if (!role && inInteractive === 1 && isIconButton(w.itemState, el, r)) role = 'clickable';
  // A hover menu's entry is one even when it holds the menu's links; so is a cell edited on double-click.
  if (!role && inInteractive !== 2 && w.reveal.has(el)) role = 'clickable';
  if (!role && inInteractive !== 2 && isEditCell(el)) role = 'gridcell';
  if (!role && inInteractive !== 2 && (focusable || pointer || clicky) && tag !== 'body' && tag !== 'html' && tag !== 'label') {
    // Weak signals: only a leaf-ish control, not a card or wrapper that holds real controls.
    const big = r.width * r.height > w.vw * w.vh * 0.5;
    const sr = shadowOf(el);
    if (!big && !el.querySelector(STRONG) && !(sr && sr.querySelector(STRONG))) {
      role = tag === 'img' ? 'image' : tag === 'svg' ? 'graphic' : clicky || pointer ? 'clickable' : 'focusable';
    }
  }
  // A list or table that handles its rows' clicks itself marks them as items, even when big or holding links.
  if (!role && clicky && inInteractive !== 2 && isListLike(el)) markItems(w.itemState, el, er);
  if (role && inInteractive === 2 && !native && !(er && INTERACTIVE_ROLES.has(er))) role = null;
  const nativeRef = native || !!control;
  if (role && !nativeRef && !w.itemState.role.has(el) && (role === 'clickable' || role === 'focusable' || isWeakRole(role))) markItems(w.itemState, el, er);
  return { role, control, nativeRef };
}

/** Whether `el` draws a visible box; `keep` receives its style and box, for the walk to reuse. */
export function isRendered(el: Element, keep?: Map<Element, Read>): boolean {
  const r = el.getBoundingClientRect();
  const st = getComputedStyle(el);
  keep?.set(el, { st, r });
  if (r.width <= 1 || r.height <= 1) return false;
  return st.visibility === 'visible' && st.opacity !== '0';
}
