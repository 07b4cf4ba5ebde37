// Which elements get refs inside clickable containers (runs inside the page, with the extractor).
// A container rated clickable only by a weak signal (a listener, `cursor: pointer`, `tabindex`) must
// not swallow what a person would click inside it: repeated children (list items, rows, suggestions,
// menu entries, tree nodes, toolbar buttons) are items with one ref each, a descendant with its own
// listener or tabindex gets its own ref, and the container keeps a ref only for text of its own.
import { BLOCKISH, cap, clean, shadowOf } from './roles';

/** Explicit roles that make a good item role, by container role. */
const ITEM_ROLE_OF: Record<string, string> = { listbox: 'option', menu: 'menuitem', menubar: 'menuitem', tree: 'treeitem', group: 'treeitem', tablist: 'tab', grid: 'gridcell', radiogroup: 'radio' };
const LISTS = 'ul,ol,[role=group],[role=tree],[role=menu],[role=listbox]';
/** How deep to look through single wrappers (`div.suggestions > ul > li`) for repeated children. */
const WRAPPER_DEPTH = 3;
const MAX_ITEMS = 500;

/** Per run: elements that are items of a clickable container, and the element behind a label target. */
export interface ItemState {
  /** Item element (or the label standing for it) → role to give it. */
  role: Map<Element, string>;
  /** Label element → the list item it stands for (tree nodes whose `li` also holds the children). */
  owner: Map<Element, Element>;
}

export function newItemState(): ItemState {
  return { role: new Map(), owner: new Map() };
}

function shown(el: Element): boolean {
  return el.checkVisibility ? el.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions) : (el as HTMLElement).offsetParent !== null;
}

function visibleKids(el: Element): Element[] {
  const root = shadowOf(el) ?? el;
  const out: Element[] = [];
  for (let c = root.firstElementChild; c; c = c.nextElementSibling) {
    const t = c.localName;
    if (t === 'script' || t === 'style' || t === 'template') continue;
    if (shown(c)) out.push(c);
  }
  return out;
}

/** Text blocks are parts of a card, not items of a list. */
const NOT_ITEMS = /^(?:p|h[1-6]|br|hr|blockquote|pre|label|script|style)$/;

function key(el: Element): string {
  return el.localName + '.' + (el.getAttribute('role') ?? '');
}

/**
 * Repeated children of a clickable container: the largest group of same-tag, same-role visible
 * children (at least 2 and at least half of them), looking through up to three single wrappers.
 */
export function repeatedChildren(container: Element): Element[] {
  let c: Element = container;
  for (let depth = 0; depth <= WRAPPER_DEPTH; depth++) {
    const kids = visibleKids(c);
    if (kids.length === 1) {
      c = kids[0];
      continue;
    }
    if (kids.length < 2) return [];
    const groups = new Map<string, Element[]>();
    for (const k of kids) {
      const g = groups.get(key(k));
      if (g) g.push(k);
      else groups.set(key(k), [k]);
    }
    let best: Element[] = [];
    for (const g of groups.values()) if (g.length > best.length && !NOT_ITEMS.test(g[0].localName)) best = g;
    if (best.length < 2 || best.length * 2 < kids.length) return [];
    return best.slice(0, MAX_ITEMS);
  }
  return [];
}

/** Roles an item may keep as its own (others, such as `article` or `listitem`, say nothing about acting). */
const ITEM_ROLES = new Set(['option', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem', 'tab', 'row', 'gridcell', 'radio', 'checkbox', 'link', 'button', 'switch']);

function itemRole(containerRole: string | null, item: Element): string {
  const own = item.getAttribute('role');
  if (own && ITEM_ROLES.has(own)) return own;
  if (containerRole && ITEM_ROLE_OF[containerRole]) return ITEM_ROLE_OF[containerRole];
  if (item.localName === 'tr') return 'row';
  return 'clickable';
}

/** A nested list inside an item (a tree node's children), if any. */
export function nestedList(item: Element): Element | null {
  for (let c = item.firstElementChild; c; c = c.nextElementSibling) if (c.matches(LISTS)) return c;
  return null;
}

/**
 * The part of an item to click: the item itself, or, when it also holds a nested list (a tree
 * node whose `li` wraps its children), its first visible child with text before that list.
 */
function target(item: Element): Element {
  const list = nestedList(item);
  if (!list) return item;
  for (let c = item.firstElementChild; c && c !== list; c = c.nextElementSibling) if (clean(c.textContent) && shown(c)) return c;
  return item;
}

/** Registers the items of a clickable container (and of lists nested in them, for trees). */
export function markItems(st: ItemState, container: Element, containerRole: string | null): number {
  const items = repeatedChildren(container);
  for (const it of items) addItem(st, it, itemRole(containerRole, it), 0);
  return items.length;
}

function addItem(st: ItemState, item: Element, role: string, depth: number) {
  const t = target(item);
  st.role.set(t, role);
  if (t !== item) st.owner.set(t, item);
  const list = nestedList(item);
  if (!list || depth > 20) return;
  // Children of a tree node are items too, even a single one (a folder with one file).
  for (const c of visibleKids(list)) {
    const own = c.getAttribute('role');
    addItem(st, c, own && ITEM_ROLES.has(own) ? own : role, depth + 1);
  }
}

/** The structural element an item ref stands for (the `li` behind a tree node's label). */
export function ownerOf(st: ItemState, el: Element): Element {
  return st.owner.get(el) ?? el;
}

/**
 * Text a person can see in `el`, leaving out descendants in `skip` (elements with their own refs)
 * and anything not rendered. Returns at most `limit` characters.
 */
export function ownText(el: Element, skip: Set<Element>, limit = 120): string {
  let out = '';
  const walk = (n: Node) => {
    if (out.length > limit) return;
    if (n.nodeType === 3) {
      out += n.nodeValue;
      return;
    }
    if (n.nodeType !== 1) return;
    const e = n as Element;
    if (skip.has(e)) return;
    const tag = e.localName;
    if (tag === 'script' || tag === 'style' || tag === 'template' || tag === 'title') return;
    if (e !== el && !shown(e)) return;
    if (tag === 'img') {
      out += ' ' + (e.getAttribute('alt') ?? '') + ' ';
      return;
    }
    const label = e !== el ? e.getAttribute('aria-label') : null;
    if (label) {
      out += ' ' + label + ' ';
      return;
    }
    // Inline tags join their text (`<b>Par</b>is` is "Paris"); blocks and flex/grid children are separate.
    const sep = BLOCKISH.test(tag) || (e !== el && e.parentElement !== null && /flex|grid/.test(getComputedStyle(e.parentElement).display)) ? ' ' : '';
    out += sep;
    const sr = shadowOf(e);
    for (let c = (sr ?? e).firstChild; c; c = c.nextSibling) walk(c);
    out += sep;
  };
  walk(el);
  return cap(clean(out), limit);
}

/**
 * Visible text of an item for its name: never text of hidden descendants (collapsed children). Up to
 * `limit` characters: a longer name is cut by the extractor, its rest following as text.
 */
export function visibleName(el: Element, limit = 120): string {
  const skip = new Set<Element>();
  const list = nestedList(el);
  if (list) skip.add(list);
  return ownText(el, skip, limit);
}

const ICON_TAGS = new Set(['span', 'i', 'div', 'svg', 'img', 'em', 'b']);

/**
 * An icon inside an item (a row's star, a card's trash can): small, without text, drawing an image.
 * Such icons act on their own even when the page handles their clicks on the container.
 */
export function isIconButton(st: ItemState, el: Element, r: DOMRect): boolean {
  if (!ICON_TAGS.has(el.localName) || r.width < 8 || r.height < 8 || r.width > 48 || r.height > 48) return false;
  if (clean(el.textContent) || el.querySelector('span,div,p')) return false;
  let inItem = false;
  for (let e = el.parentElement, i = 0; e && i < 8; e = e.parentElement, i++) {
    if (st.role.has(e)) {
      inItem = true;
      break;
    }
  }
  if (!inItem) return false;
  if (el.localName === 'img' || el.localName === 'svg' || el.querySelector('svg,img')) return true;
  const cs = getComputedStyle(el);
  if (cs.backgroundImage !== 'none' || (cs.maskImage && cs.maskImage !== 'none')) return true;
  const before = getComputedStyle(el, '::before').content;
  return !!before && before !== 'none' && before !== 'normal';
}

const LIST_LIKE = 'ul,ol,table,tbody,[role=list],[role=listbox],[role=grid],[role=treegrid],[role=menu],[role=tree],[role=rowgroup],[role=feed]';

/** A list, table or grid element (not a page wrapper such as a framework's root `div`). */
export function isListLike(el: Element): boolean {
  return el.matches(LIST_LIKE);
}
