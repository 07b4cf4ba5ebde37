// Turns an element the walk gave a role into an element item (ref, name or hint, states, viewport, value),
// with the rest of a long name following as text; and settles a container once its descendants are known.
import type { ElementItem } from '../protocol';
import { cap, isWeakRole } from './roles';
import { elementStates, fullValue, VALUE_CUT } from './states';
import { ownText, ownerOf, visibleName } from './items';
import { structureWords, treeNodeOf } from './structure';
import { MAX_NAME, MAX_REST, nameOverflow, nameShown, linkHref } from './reading';
import { hintOf, nameOf } from './naming';
import { addState, flush, inViewport, type Run } from './runState';
import { refFor } from './world';

/** Hit tests per run at most (each one walks the layout). */
const MAX_HIT_TESTS = 2000;

/** `control`: the control a label stands for (the label gets the ref, the control's name and states). */
export function emit(w: Run, el: Element, role: string, r: DOMRect, control?: Element): void {
  const target = control ?? el;
  const item = w.itemState.role.has(el);
  const byText = item && !el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby');
  const name = nameOf(el, role, control, byText);
  // The text gathered before it goes out first, so an unnamed control says it follows that text, not older text.
  flush(w);
  const hint = name ? '' : hintOf(el, role, target, item, w.lastText);
  const id = refFor(el, role, name || hint);
  const inVp = inViewport(w, r);
  let states = elementStates(target, role, target === w.active || el === w.active);
  // A tree node's label with a listener of its own (a jQuery treeview's span) is placed like an item.
  const node = item ? null : treeNodeOf(el, role);
  const sw = structureWords(el, node ?? ownerOf(w.itemState, el), role, item || !!node, w.sibCache, states);
  if (sw) {
    states = states ? `${sw} ${states}` : sw;
    w.structOf.set(el, sw);
  }
  const fv = fullValue(target);
  const hitTest = inVp && w.hitTests < MAX_HIT_TESTS && r.width > 1 && r.height > 1;
  if (hitTest) w.hitTests++;
  // A name cut with its rest following as text ends between words (nameShown); one without a rest shows all it can.
  const rest = nameOverflow(el, name, byText ? (limit) => visibleName(el, limit) : undefined);
  const it: ElementItem = { id, role, name: rest ? nameShown(name) + '…' : cap(name, MAX_NAME), hint: hint || undefined, href: linkHref(el), st: states || undefined, vp: inVp ? 1 : 0, full: fv.length > VALUE_CUT ? fv : undefined };
  w.items.push(it);
  if (hitTest) w.toHitTest.push({ el, r, it });
  if (rest) {
    const t = { t: '…' + rest, vp: it.vp };
    w.items.push(t);
    w.restOf.set(it, t);
  }
  w.emitted.push(el);
  w.emittedItems.push(it);
  if (name) w.lastText = name.slice(-40);
  w.count++;
}

/** A file input hidden behind a styled button stays reachable (setting files needs no box). */
export function emitHiddenFile(w: Run, el: Element): void {
  emit(w, el, 'file', new DOMRect(0, 0, 0, 0));
  addState(w, 'hidden');
}

/**
 * A container whose descendants got refs of their own keeps a ref only for text of its own (named
 * after that text); a generic clickable container with nothing of its own is dropped. `mine`: its index
 * in `emitted`.
 */
export function settleContainer(w: Run, el: Element, mine: number, role: string, native: boolean): void {
  if (native) return;
  const kids = w.emitted.slice(mine + 1);
  const named = el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby');
  const own = named ? '' : ownText(el, new Set(kids), MAX_REST);
  const it = w.emittedItems[mine];
  // The rest of a name read from the whole subtree repeats the refs' own text: the container's own text replaces it.
  const rest = w.restOf.get(it);
  if (rest && !named) w.items.splice(w.items.indexOf(rest), 1);
  if (!own && !named && (role === 'clickable' || role === 'focusable' || isWeakRole(role))) {
    const at = w.items.lastIndexOf(it);
    if (at >= 0) w.items.splice(at, 1);
    w.count--;
    // An item whose only ref'd part is its label (a tree leaf's span): the label says where it is.
    const sw = w.structOf.get(el);
    const only = kids.length === 1 ? w.emittedItems[mine + 1] : undefined;
    if (sw && only && !only.st?.startsWith(sw)) only.st = only.st ? `${sw} ${only.st}` : sw;
  } else if (!named && own) {
    it.name = own.length > MAX_NAME ? nameShown(own) + '…' : own;
    it.hint = undefined;
    // What the name cannot hold follows as text, so no word of the container's own is lost.
    if (own.length > MAX_NAME) w.items.splice(w.items.lastIndexOf(it) + 1, 0, { t: '…' + own.slice(nameShown(own).length).trim(), vp: it.vp });
  }
}
