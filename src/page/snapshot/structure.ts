// Where an item sits in its list, tree, menu or grid (runs inside the page): position `2 of 5`,
// tree level, expanded/collapsed and leaf — compact state words a model can use to navigate.
import { drawnTreeState } from './drawn';
import { clean } from './roles';
import { nestedList } from './items';

/** Roles whose elements are items of a set: they get a position. */
const SET_ITEM_ROLES = new Set(['option', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem']);

/** Visible siblings of the same kind, per parent and kind, cached for one run (lists can be long). */
export type SiblingCache = Map<Element, Map<string, Element[]>>;

function shown(el: Element): boolean {
  return el.checkVisibility ? el.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions) : true;
}

function kind(el: Element): string {
  return el.localName + '.' + (el.getAttribute('role') ?? '');
}

function siblings(cache: SiblingCache, el: Element): Element[] {
  const p = el.parentElement;
  if (!p) return [el];
  let byKind = cache.get(p);
  if (!byKind) {
    byKind = new Map();
    for (let c = p.firstElementChild; c; c = c.nextElementSibling) {
      if (!shown(c)) continue;
      const k = kind(c);
      const list = byKind.get(k);
      if (list) list.push(c);
      else byKind.set(k, [c]);
    }
    cache.set(p, byKind);
  }
  return byKind.get(kind(el)) ?? [el];
}

const columnsOf = new WeakMap<Element[], number>();

/** Columns of a CSS grid of items: how many share the first one's row. 0 when the parent is no grid. */
function gridColumns(item: Element, sibs: Element[]): number {
  const known = columnsOf.get(sibs);
  if (known !== undefined) return known;
  let cols = 0;
  const p = item.parentElement;
  if (p && /grid/.test(getComputedStyle(p).display)) {
    const top = sibs[0].getBoundingClientRect().top;
    cols = sibs.filter((c) => Math.abs(c.getBoundingClientRect().top - top) < 1).length;
    if (cols >= sibs.length) cols = 0;
  }
  columnsOf.set(sibs, cols);
  return cols;
}

const CONTAINER_ROLES = /^(listbox|menu|menubar|tree|treegrid|grid|tablist|radiogroup|toolbar|list|table)$/;

function labelledContainer(item: Element): string {
  let e = item.parentElement;
  for (let i = 0; e && i < 3; i++, e = e.parentElement) {
    const role = e.getAttribute('role');
    let label = e.getAttribute('aria-label');
    const by = e.getAttribute('aria-labelledby');
    if (!label && by) label = by.split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
    label = (label ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
    if (label) return `in ${role && CONTAINER_ROLES.test(role) ? role : 'list'} ${JSON.stringify(label)}`;
    if (role && (CONTAINER_ROLES.test(role) || role === 'group')) return '';
  }
  return '';
}

function isTreeish(el: Element, role: string): boolean {
  if (role === 'treeitem') return true;
  if (nestedList(el)) return true;
  const list = el.parentElement;
  // A leaf next to folders is in a tree too.
  if (list && Array.from(list.children).some((c) => c !== el && nestedList(c))) return true;
  return !!list && !!list.parentElement && (list.parentElement.localName === 'li' || list.parentElement.getAttribute('role') === 'treeitem');
}

/**
 * The tree node (`li`) whose label `el` is, when `el` got its ref by a listener or tabindex of its own
 * rather than as an item: the first child with text of an `li` in a tree of nested lists. Only for such
 * weak roles: links and buttons in nested navigation menus stay as they are.
 */
export function treeNodeOf(el: Element, role: string): Element | null {
  if (role !== 'clickable' && role !== 'focusable') return null;
  const li = el.parentElement;
  if (!li || li.localName !== 'li') return null;
  const list = nestedList(li);
  for (let c = li.firstElementChild; c && c !== list; c = c.nextElementSibling) {
    if (!clean(c.textContent)) continue;
    return c === el && isTreeish(li, role) ? li : null;
  }
  return null;
}

/**
 * The label of the tree node whose toggle `el` is: an element without text before the node's label in
 * an `li` of a tree (a jQuery treeview's `hitarea`), so it is named after what it opens and closes.
 */
export function treeToggleOf(el: Element): string {
  const li = el.parentElement;
  if (!li || li.localName !== 'li' || clean(el.textContent)) return '';
  const list = nestedList(li);
  let seen = false;
  for (let c = li.firstElementChild; c && c !== list; c = c.nextElementSibling) {
    if (c === el) seen = true;
    else if (clean(c.textContent)) return seen && isTreeish(li, '') ? clean(c.textContent).slice(0, 40) : '';
  }
  return '';
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
    const i = sibs.indexOf(item);
    const cols = sibs.length > 3 ? gridColumns(item, sibs) : 0;
    // Cells of a CSS grid (a board, a calendar) say their row and column.
    if (cols > 1) out.push(`row=${Math.floor(i / cols) + 1} col=${(i % cols) + 1} of ${Math.ceil(sibs.length / cols)}x${cols}`);
    else if (sibs.length > 1) out.push(`${i + 1} of ${sibs.length}`);
  }
  // The first item names its container when the page labels it (`in menu "File"`).
  if (/^1 of |^row=1 col=1 /.test(out[0] ?? '')) {
    const c = labelledContainer(item);
    if (c) out.push(c);
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
