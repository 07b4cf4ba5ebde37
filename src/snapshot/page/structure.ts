// Where an item sits in its list, tree, menu or grid (runs inside the page): position `2 of 5`,
// tree level, expanded/collapsed and leaf — compact state words a model can use to navigate.
import { drawnTreeState } from './drawn';
import { nestedList } from './items';

/** Roles whose elements are items of a set: they get a position. */
const SET_ITEM_ROLES = new Set(['option', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem']);

/** Visible siblings of the same kind, cached per parent for one run (lists can be long). */
export type SiblingCache = Map<Element, Element[]>;

function shown(el: Element): boolean {
  return el.checkVisibility ? el.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions) : true;
}

function kind(el: Element): string {
  return el.localName + '.' + (el.getAttribute('role') ?? '');
}

function siblings(cache: SiblingCache, el: Element): Element[] {
  const p = el.parentElement;
  if (!p) return [el];
  const k = kind(el);
  let list = cache.get(p);
  if (!list) {
    list = [];
    for (let c = p.firstElementChild; c; c = c.nextElementSibling) if (shown(c)) list.push(c);
    cache.set(p, list);
  }
  return list.filter((c) => kind(c) === k);
}

function isTreeish(el: Element, role: string): boolean {
  if (role === 'treeitem') return true;
  if (nestedList(el)) return true;
  const list = el.parentElement;
  // A leaf next to folders is in a tree too.
  if (list && Array.from(list.children).some((c) => c !== el && nestedList(c))) return true;
  return !!list && !!list.parentElement && (list.parentElement.localName === 'li' || list.parentElement.getAttribute('role') === 'treeitem');
}

function level(el: Element): number {
  let n = 1;
  let e = el.parentElement;
  for (let i = 0; e && i < 40; i++, e = e.parentElement) {
    if (e.localName === 'li' || e.getAttribute('role') === 'treeitem') n++;
  }
  return n;
}

/**
 * State words for an item: `2 of 5`, and in trees `level=2` plus `expanded`, `collapsed` or `leaf`.
 * `el` carries the ref; `item` is the structural element (the `li` behind a tree node's label).
 * `isItem` is true for items found under a clickable container.
 */
export function structureWords(el: Element, item: Element, role: string, isItem: boolean, cache: SiblingCache, states: string): string {
  if (!isItem && !SET_ITEM_ROLES.has(role)) return '';
  const out: string[] = [];
  const pos = Number(item.getAttribute('aria-posinset') || el.getAttribute('aria-posinset'));
  const size = Number(item.getAttribute('aria-setsize') || el.getAttribute('aria-setsize'));
  if (pos > 0 && size > 0) out.push(`${pos} of ${size}`);
  else {
    const sibs = siblings(cache, item);
    if (sibs.length > 1) out.push(`${sibs.indexOf(item) + 1} of ${sibs.length}`);
  }
  if (isTreeish(item, role)) {
    const lv = Number(item.getAttribute('aria-level') || el.getAttribute('aria-level')) || level(item);
    out.push(`level=${lv}`);
    if (!/\b(expanded|collapsed)\b/.test(states)) {
      const list = nestedList(item);
      const drawn = drawnTreeState(item === el ? [el] : [el, item]);
      if (list && list.firstElementChild) out.push(shown(list) ? 'expanded' : 'collapsed');
      else if (drawn.expanded !== undefined) out.push(drawn.expanded ? 'expanded' : 'collapsed');
      else if (drawn.folder) out.push('folder');
      else out.push('leaf');
    }
  }
  return out.join(' ');
}
