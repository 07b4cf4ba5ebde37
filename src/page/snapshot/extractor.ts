// The in-page extractor: one pass over a frame's DOM (open shadow roots included) that finds every
// interactive element, names it, reads its state, hit-tests it and interleaves the readable text.
// Runs in an isolated world (the page cannot see or tamper with it) and keeps refs stable in a
// WeakMap for as long as the document lives. Installed once per world as `globalThis.__baSnap`.
import type { ElementItem, PageItem, RunOptions, RunResult, SummaryResult, DetailsResult } from '../protocol';
import { INTERACTIVE_ROLES, closedRoots, shadowOf, buildLabelMap, clearLabelMap, labelsOf, accessibleName, cap, clean, describeSvg, explicitRole, iconHint, isWeakRole, nativeRole } from './roles';
import { elementStates, fullValue, VALUE_CUT } from './states';
import { isIconButton, isListLike, markItems, newItemState, ownText, ownerOf, visibleName } from './items';
import { structureWords, treeNodeOf, treeToggleOf, type SiblingCache } from './structure';
import { describeShape, drawnMark, svgHasTargets, svgText } from './drawn';
import { cssPath, xPath } from './selectors';
import { elementAt } from '../hit';
import { MAX_NAME, MAX_REST, attributeName, nameOverflow, nameShown, imageText, keyboardReachable, landmarkOf, linkHref } from './reading';
import { expandOptionsOf } from './options';
import { changeCount } from './changes';
import './announce';
import { hoverRevealers, isDoubleClickable, isDragHandle, isEditCell, markEditHosts } from './gestures';
import { clippedByAncestor, sectionOf } from './scrollAreas';
import { ICON_ROLES, classHint, controlsHint, describedHint, idHint, rowHint } from './hints';

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'base', 'option', 'optgroup', 'datalist', 'param', 'source', 'track']);
const BLOCK_DISPLAY = /^(block|flex|grid|list-item|table|table-row|table-caption|flow-root)/;
const STRONG = 'a[href],button,input:not([type=hidden]),select,textarea,[role=button],[role=link],[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=option],[role=switch],[role=textbox],[role=combobox],[contenteditable=""],[contenteditable=true]';

interface State {
  map: WeakMap<Element, number>;
  byId: Map<number, WeakRef<Element>>;
  sigOf: Map<number, string>;
  /** Signatures of elements that disappeared since the last run: a re-render gets its ref back. */
  gone: Map<string, number[]>;
  next: number;
  click: WeakSet<Element>;
  frames: Element[];
  /** Elements that may host a closed shadow root, found by the last run and not yet asked about. */
  hostCandidates: Element[];
  /** Candidates already asked about, and whether they were upgraded custom elements by then. */
  probed: WeakMap<Element, boolean>;
}

const DOC = String(performance.timeOrigin);

const S: State = {
  map: new WeakMap(),
  byId: new Map(),
  sigOf: new Map(),
  gone: new Map(),
  next: 1,
  click: new WeakSet(),
  frames: [],
  hostCandidates: [],
  probed: new WeakMap(),
};

/** Elements that may carry a shadow root besides custom elements (the spec's list for attachShadow). */
const HOST_TAGS = new Set(['article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'main', 'nav', 'p', 'section', 'span']);
const MAX_HOST_CANDIDATES = 200;
/**
 * A component class attaches its root the same way for every instance: after this many instances of a
 * custom tag without a closed root, the tag's other instances are not asked about (unless one had a root).
 */
const PROBES_PER_TAG = 3;

/** Per tag (`tag` once upgraded, `tag:undef` before): instances asked about, and tags known to use closed roots. */
const tagProbes = new Map<string, number>();
const tagsWithClosedRoots = new Set<string>();
/** Candidates per tag key in the current run. */
let runTagCount = new Map<string, number>();

function tagKey(el: Element): string {
  return el.matches(':defined') ? el.localName : el.localName + ':undef';
}

/**
 * Could `el` hide a closed shadow root? Custom elements (a dash in the tag) without an open root,
 * and rendered but childless built-in hosts: a closed root is the only way those draw anything.
 */
function mayHostClosedRoot(el: Element, r: DOMRect): boolean {
  const tag = el.localName;
  const custom = tag.includes('-');
  // Cheap tests first: this runs for every element of the page.
  if (!custom && (!HOST_TAGS.has(tag) || el.firstChild || !(r.width > 0 && r.height > 0))) return false;
  if (el.shadowRoot || closedRoots.has(el)) return false;
  const probed = S.probed.get(el);
  // A custom element defined (upgraded) after we asked may have attached a root since.
  if (probed !== undefined && (probed || !custom || !el.matches(':defined'))) return false;
  if (!custom) return true;
  const key = tagKey(el);
  if (tagsWithClosedRoots.has(tag)) return true;
  const n = (tagProbes.get(key) ?? 0) + (runTagCount.get(key) ?? 0);
  if (n >= PROBES_PER_TAG) return false;
  runTagCount.set(key, (runTagCount.get(key) ?? 0) + 1);
  return true;
}

function parentEl(n: Node): Element | null {
  const p = n.parentNode;
  if (!p) return null;
  if (p.nodeType === 11) return (p as ShadowRoot).host ?? null;
  return p as Element;
}

/** Role, name and ancestor tags: what a re-rendered copy of the element shares with the original. */
function signature(el: Element, role: string, name: string): string {
  let path = '';
  let e: Element | null = el;
  for (let i = 0; i < 4 && e; i++) {
    path += e.localName + '/';
    e = parentEl(e);
  }
  return role + '|' + name + '|' + path;
}

function refFor(el: Element, role: string, name: string): number {
  let id = S.map.get(el);
  if (id !== undefined) return id;
  const sig = signature(el, role, name);
  // Re-rendered copies come back in document order: hand out the old refs first-come first-served.
  id = S.gone.get(sig)?.shift();
  if (id === undefined) id = S.next++;
  S.map.set(el, id);
  S.byId.set(id, new WeakRef(el));
  S.sigOf.set(id, sig);
  return id;
}

function get(id: number): Element | null {
  const el = S.byId.get(id)?.deref();
  return el && el.isConnected ? el : null;
}

/** Forgets elements that left the document, keeping their signatures for one run (re-renders). */
function sweep() {
  S.gone.clear();
  for (const [id, ref] of S.byId) {
    const el = ref.deref();
    if (!el || !el.isConnected) {
      S.byId.delete(id);
      const sig = S.sigOf.get(id);
      S.sigOf.delete(id);
      if (sig && el) S.map.delete(el);
      if (sig) {
        const q = S.gone.get(sig);
        if (q) q.push(id);
        else S.gone.set(sig, [id]);
      }
    }
  }
}

function deepActive(): Element | null {
  let a: Element | null = document.activeElement;
  while (a) {
    const next = shadowOf(a)?.activeElement;
    if (!next) break;
    a = next;
  }
  return a;
}

function composedContains(outer: Element, inner: Element | null): boolean {
  for (let e: Element | null = inner; e; e = parentEl(e)) if (e === outer) return true;
  return false;
}

function hitAt(x: number, y: number): Element | null {
  return elementAt(document, x, y, shadowOf);
}

/** Covered when every probe point inside the viewport hits something that is neither the element nor its ancestor. */
function coveredBy(el: Element, r: DOMRect, vw: number, vh: number): Element | null {
  const pts: Array<[number, number]> = [
    [r.left + r.width / 2, r.top + r.height / 2],
    [r.left + r.width * 0.2, r.top + r.height * 0.2],
    [r.left + r.width * 0.8, r.top + r.height * 0.8],
    [r.left + r.width * 0.8, r.top + r.height * 0.2],
    [r.left + r.width * 0.2, r.top + r.height * 0.8],
  ];
  let tested = 0;
  let first: Element | null = null;
  for (const [x, y] of pts) {
    if (x < 0 || y < 0 || x >= vw || y >= vh) continue;
    const h = hitAt(x, y);
    if (!h) continue; // outside the visual viewport after all
    tested++;
    if (composedContains(el, h) || composedContains(h, el)) return null;
    first ??= h;
  }
  return tested && !clippedByAncestor(el, r) ? first : null;
}

function describeCoverer(c: Element): string {
  const id = S.map.get(c);
  if (id !== undefined) return `[${id}]`;
  const label = clean(c.getAttribute('aria-label')) || clean(c.textContent).slice(0, 30);
  return label ? `${c.localName} "${cap(label, 30)}"` : c.localName;
}

function run(o: RunOptions): RunResult {
  const t0 = performance.now();
  sweep();
  buildLabelMap(document);
  // Refs are numbered per document (short refs on long sessions); a world re-created on the same document keeps counting.
  if (o.start > S.next && o.doc === DOC) S.next = o.start;
  S.frames = [];
  S.hostCandidates = [];
  runTagCount = new Map();
  const items: PageItem[] = [];
  const vw = innerWidth;
  const vh = innerHeight;
  const sx = scrollX;
  const sy = scrollY;
  const active = deepActive();
  /** How far the scroll areas around the element being walked are scrolled, summed. */
  let scrolledX = 0;
  let scrolledY = 0;
  let buf = '';
  let bufPrefix = '';
  /** Whether any text in `buf` comes from an element inside the viewport. */
  let bufVp = false;
  let lastText = '';
  let count = 0;
  let hitTests = 0;
  /** Elements in the viewport, hit-tested after the walk, and only if something could cover them. */
  const toHitTest: Array<{ el: Element; r: DOMRect; it: ElementItem }> = [];
  // A subtree does not see the rest of the page, where an overlay may be: it always hit-tests.
  let mayOverlap = o.root !== undefined;
  const itemState = newItemState();
  /** Entries of CSS :hover menus (gestures.ts). */
  const reveal = o.root === undefined ? hoverRevealers() : new Set<Element>();
  const sibCache: SiblingCache = new Map();
  /** Element behind each element item of this run, in order (a container learns which refs it holds). */
  const emitted: Element[] = [];
  /** The item of each element in `emitted`, and the structure words it got. */
  const emittedItems: ElementItem[] = [];
  const structOf = new Map<Element, string>();
  /** The text line that carries the rest of a name cut at MAX_NAME (reading.ts). */
  const restOf = new Map<ElementItem, PageItem>();
  /** Style and box of label controls, read ahead by their label (the walk reaches them next). */
  const preread = new Map<Element, { st: CSSStyleDeclaration; r: DOMRect }>();

  const flush = () => {
    const t = clean(buf);
    if (t) {
      items.push({ t: bufPrefix + t, vp: bufVp ? 1 : 0 });
      lastText = t.slice(-40);
    }
    buf = '';
    bufPrefix = '';
    bufVp = false;
  };

  const emit = (el: Element, role: string, st: CSSStyleDeclaration, r: DOMRect, control?: Element) => {
    const target = control ?? el;
    const item = itemState.role.has(el);
    const byText = item && !el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby');
    // Read past MAX_NAME so that a long item (a terminal's output) is cut with its rest following.
    let name = byText ? visibleName(el, MAX_NAME + 1) : accessibleName(el, role);
    if (!name && control) name = accessibleName(control, role);
    if (!name) {
      // Glyphs drawn with SVG <text> (a letter, a digit) name the control that shows them.
      const svg = el.localName === 'svg' ? el : el.querySelector('svg');
      if (svg) name = svgText(svg);
    }
    if (!name && el instanceof SVGElement && el.localName !== 'svg') name = clean(el.querySelector(':scope > title')?.textContent) || svgText(el);
    let hint = '';
    if (!name && el instanceof SVGElement && el.localName !== 'svg') hint = describeShape(el);
    // An icon button's `value=Search` says more than the shape of its icon.
    if (!name && !hint && target.localName === 'button') hint = attributeName(target);
    // What the author wrote for it (a description, a tooltip) says more than its looks.
    if (!name && !hint) hint = describedHint(el);
    // A tree node's toggle (a treeview's hit area) is named after the node it opens and closes.
    if (!name && !hint) {
      const node = treeToggleOf(el);
      if (node) hint = `toggles ${JSON.stringify(node)}`;
    }
    if (!name && !hint) {
      if (el.localName === 'svg' || (!clean(el.textContent) && el.querySelector('svg'))) {
        const svg = el.localName === 'svg' ? el : el.querySelector('svg')!;
        const d = describeSvg(svg);
        if (d) hint = `svg: ${d}`;
      }
      const ih = iconHint(el);
      if (ih) hint = hint ? `${ih}; ${hint}` : `${ih} icon`;
      if (!hint) {
        const m = drawnMark(el);
        if (m) hint = `drawn: ${m}`;
      }
    }
    // Items say where they are (`2 of 9`); other unnamed controls say what they follow.
    if (!name && !hint) hint = attributeName(target);
    if (!name && !hint) hint = controlsHint(el);
    if (!name && !hint && !item && ICON_ROLES.has(role)) {
      const c = classHint(el);
      if (c) hint = `${c} icon`;
    }
    if (!name && !hint) hint = rowHint(el);
    if (!name && !hint) hint = idHint(target);
    if (!name && !hint && lastText && !item) hint = `after "${cap(lastText, 30)}"`;
    const id = refFor(el, role, name || hint);
    const inVp = r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw;
    let states = elementStates(target, role, target === active || el === active);
    // A tree node's label with a listener of its own (a jQuery treeview's span) is placed like an item.
    const node = item ? null : treeNodeOf(el, role);
    const sw = structureWords(el, node ?? ownerOf(itemState, el), role, item || !!node, sibCache, states);
    if (sw) {
      states = states ? `${sw} ${states}` : sw;
      structOf.set(el, sw);
    }
    const fv = fullValue(target);
    const hitTest = inVp && hitTests < 2000 && r.width > 1 && r.height > 1;
    if (hitTest) hitTests++;
    flush();
    // A name cut with its rest following as text ends between words (nameShown); one without a rest shows all it can.
    const rest = nameOverflow(el, name, byText ? (limit) => visibleName(el, limit) : undefined);
    const it: ElementItem = { id, role, name: rest ? nameShown(name) + '…' : cap(name, MAX_NAME), hint: hint || undefined, href: linkHref(el), st: states || undefined, vp: inVp ? 1 : 0, full: fv.length > VALUE_CUT ? fv : undefined };
    items.push(it);
    if (hitTest) toHitTest.push({ el, r, it });
    if (rest) {
      const t = { t: '…' + rest, vp: it.vp };
      items.push(t);
      restOf.set(it, t);
    }
    emitted.push(el);
    emittedItems.push(it);
    if (name) lastText = name.slice(-40);
    count++;
  };

  /**
   * `inInteractive`: 0 outside controls; 1 inside a container rated clickable only by a weak signal or
   * an ARIA role (descendants with their own listener or tabindex, and items, still get refs); 2 inside a
   * native control (a button's spans are the button).
   */
  const walk = (el: Element, parentCursor: string, inInteractive: 0 | 1 | 2, suppressText: boolean, parentHidden: boolean) => {
    const tag = el.localName;
    if (SKIP.has(tag)) return;
    // A label's control was read when the label asked whether it is rendered: not read twice.
    const pre = preread.get(el);
    const st = pre ? pre.st : getComputedStyle(el);
    const display = st.display;
    if (display === 'none') {
      // File inputs stay reachable even when hidden behind a styled button.
      if (tag === 'input' && (el as HTMLInputElement).type === 'file') emitHiddenFile(el, st);
      return;
    }
    const hidden = st.visibility !== 'visible';
    const cursor = st.cursor;
    if (!mayOverlap) mayOverlap = drawnOver(st, display);
    const r = pre ? pre.r : el.getBoundingClientRect();
    // Off-canvas (left:-9999px) and 1px screen-reader-only boxes are not on screen.
    // An element scrolled out of a scroll area's view above or to the left is in the area, not off-canvas.
    const offCanvas = r.right + sx + scrolledX < 0 || r.bottom + sy + scrolledY < 0;
    const tiny = r.width <= 1 && r.height <= 1 && (st.overflow === 'hidden' || st.position === 'absolute' || st.position === 'fixed');
    const zeroBox = r.width === 0 && r.height === 0;
    const block = BLOCK_DISPLAY.test(display) && tag !== 'td' && tag !== 'th';
    if (block) flush();

    let role: string | null = null;
    let control: Element | undefined;
    let nativeRef = false;
    const visibleBox = !hidden && !offCanvas && r.width > 0 && r.height > 0 && !tiny;
    // Skip links and other controls parked off-screen stay listed (marked offscreen): the keyboard reaches them.
    const parked = !visibleBox && !hidden && (offCanvas || (tiny && r.width + r.height > 0)) && tag !== 'input' && keyboardReachable(el);
    // A list of floated items has no height of its own (no clearfix), yet its items are on screen.
    const spills = !visibleBox && !hidden && !offCanvas && !tiny && r.width + r.height > 0 && S.click.has(el) && st.overflowY === 'visible' && st.overflowX === 'visible' && hasRenderedChild(el);
    if (visibleBox || parked || spills || (tag === 'input' && (el as HTMLInputElement).type === 'file')) {
      const er = explicitRole(el);
      const nr = nativeRole(el);
      role = er && INTERACTIVE_ROLES.has(er) ? er : nr;
      const native = !!nr;
      if (tag === 'input' && (el as HTMLInputElement).type !== 'file' && st.opacity === '0') {
        // Invisible (opacity 0) checkbox/radio drawn by its label: the label gets the ref instead.
        const labels = labelsOf(el);
        if (labels && labels.length && Array.from(labels).some((l) => l.getBoundingClientRect().width > 0)) role = null;
      }
      if (!role && tag === 'label') {
        const c = (el as HTMLLabelElement).control;
        if (c && !isRendered(c, preread)) {
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
      if (!role) role = itemState.role.get(el) ?? null;
      if (!role && inInteractive === 1 && isIconButton(itemState, el, r)) role = 'clickable';
      // A hover menu's entry is one even when it holds the menu's links; so is a cell edited on double-click.
      if (!role && inInteractive !== 2 && reveal.has(el)) role = 'clickable';
      if (!role && inInteractive !== 2 && isEditCell(el)) role = 'gridcell';
      if (!role && inInteractive !== 2 && (focusable || pointer || clicky) && tag !== 'body' && tag !== 'html' && tag !== 'label') {
        // Weak signals: only a leaf-ish control, not a card or wrapper that holds real controls.
        const big = r.width * r.height > vw * vh * 0.5;
        const sr = shadowOf(el);
        if (!big && !el.querySelector(STRONG) && !(sr && sr.querySelector(STRONG))) {
          role = tag === 'img' ? 'image' : tag === 'svg' ? 'graphic' : clicky || pointer ? 'clickable' : 'focusable';
        }
      }
      // A list or table that handles its rows' clicks itself marks them as items, even when big or holding links.
      if (!role && clicky && inInteractive !== 2 && isListLike(el)) markItems(itemState, el, er);
      if (role && inInteractive === 2 && !native && !(er && INTERACTIVE_ROLES.has(er))) role = null;
      nativeRef = native || !!control;
      if (role && !nativeRef && !itemState.role.has(el) && (role === 'clickable' || role === 'focusable' || isWeakRole(role))) markItems(itemState, el, er);
    }

    let mine = -1;
    if (role) {
      emit(el, role, st, r, control);
      if (parked) addState('offscreen');
      if (reveal.has(el)) addState('opens-on-hover');
      if (isDragHandle(el, cursor, parentCursor)) addState('draggable');
      if (tag === 'select' || tag === 'textarea' || tag === 'input') return;
      mine = emitted.length - 1;
    } else if (tag === 'iframe' || tag === 'frame') {
      if (visibleBox) {
        flush();
        items.push({ frame: S.frames.length, vp: r.bottom > 0 && r.top < vh ? 1 : 0 });
        S.frames.push(el);
      }
      return;
    } else if (tag === 'svg' && visibleBox && !inInteractive && !svgHasTargets(el, (e) => S.click.has(e))) {
      const label = clean(el.getAttribute('aria-label')) || clean(el.querySelector(':scope > title')?.textContent) || clean(el.querySelector(':scope > desc')?.textContent);
      const d = describeSvg(el);
      if (label || el.getAttribute('role') === 'img') buf += ` [svg${label ? ` "${cap(label, 60)}"` : ''}${d ? `: ${d}` : ''}] `;
      else {
        // Glyphs drawn as SVG text are text; a lone shape (a status dot, a marker) is described.
        const t = svgText(el);
        if (t) buf += ` ${t} `;
        else if (d && /\b(circle|rect|polygon|line|ellipse)\b/.test(d)) buf += ` [svg: ${d}] `;
      }
      return;
    } else if (tag === 'img' && visibleBox && !inInteractive && !suppressText && r.width >= 2 && r.height >= 2) {
      buf += imageText(el);
      if (elInVpOf(r)) bufVp = true;
      return;
    } else if (tag === 'br') {
      buf += ' ';
    } else if ((tag === 'td' || tag === 'th') && !suppressText && !inInteractive) {
      buf += ' | ';
    }

    if (!role && visibleBox && !el.firstElementChild && !clean(el.textContent) && isCell(el, tag)) {
      // A mark drawn by CSS in a grid cell (a background image, pseudo-element content).
      const m = drawnMark(el);
      if (m) buf += ` (drawn: ${m}) `;
    }
    const inside: 0 | 1 | 2 = role ? (nativeRef ? 2 : inInteractive === 2 ? 2 : 1) : inInteractive;
    const quiet = suppressText || !!inside || (tag === 'label' && !!(el as HTMLLabelElement).control);
    // A clickable list that scrolls by itself (its rows are items) still says it scrolls.
    const ownsItems = !!role && !nativeRef && !suppressText && inInteractive !== 2;
    const section = hidden ? '' : !quiet ? sectionOf(landmarkOf(el), el, st) : ownsItems ? sectionOf('', el, st) : '';
    if (section) {
      flush();
      items.push({ sec: section });
    }
    const textHidden = hidden || tiny || offCanvas || (zeroBox && display !== 'contents') || (block && !el.checkVisibility());
    if (block && !quiet) {
      if (/^h[1-6]$/.test(tag)) bufPrefix = '#'.repeat(+tag[1]) + ' ';
      else if (el.getAttribute('role') === 'heading') bufPrefix = '#'.repeat(+(el.getAttribute('aria-level') || 2)) + ' ';
      else if (tag === 'li') bufPrefix = '- ';
    }
    const elInVp = r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw;
    const shadow = shadowOf(el);
    if (!shadow && S.hostCandidates.length < MAX_HOST_CANDIDATES && mayHostClosedRoot(el, r)) S.hostCandidates.push(el);
    // Scroll offsets of the areas around the children: what is scrolled out above is not off-canvas.
    // (The scrolling element's offsets are the window's, already in sx/sy.)
    const scrolls = (st.overflowY !== 'visible' || st.overflowX !== 'visible') && el !== document.scrollingElement && el !== document.documentElement;
    const dx = scrolls ? el.scrollLeft : 0;
    const dy = scrolls ? el.scrollTop : 0;
    scrolledX += dx;
    scrolledY += dy;
    visitChildren(shadow ? shadow.firstChild : el.firstChild, cursor, inside, quiet, textHidden, elInVp);
    scrolledX -= dx;
    scrolledY -= dy;
    if (block) {
      if (!quiet) flush();
      else if (bufPrefix) bufPrefix = '';
    }
    if (mine >= 0 && emitted.length > mine + 1) settleContainer(el, mine, role!, nativeRef);
    if (section) {
      flush();
      items.push({ sec: '/' + section.split(' ')[0] });
    }
    void parentHidden;
  };

  /**
   * The children of an element from `first` on, in the context their parent gives them (a slot stands for
   * its assigned nodes). One function per run, not closures per element: the walk visits every element.
   */
  const visitChildren = (first: Node | null, cursor: string, inside: 0 | 1 | 2, quiet: boolean, textHidden: boolean, inVp: boolean) => {
    const text = !quiet && !textHidden;
    for (let c = first; c; c = c.nextSibling) {
      if (c.nodeType === 1) {
        if ((c as Element).localName === 'slot') {
          for (const a of (c as HTMLSlotElement).assignedNodes({ flatten: true })) {
            if (a.nodeType === 1) walk(a as Element, cursor, inside, quiet, textHidden);
            else if (a.nodeType === 3 && text) {
              buf += a.nodeValue;
              if (inVp) bufVp = true;
            }
          }
          if (!(c as HTMLSlotElement).assignedNodes().length) visitChildren(c.firstChild, cursor, inside, quiet, textHidden, inVp);
        } else walk(c as Element, cursor, inside, quiet, textHidden);
      } else if (c.nodeType === 3 && text) {
        buf += c.nodeValue;
        if (inVp) bufVp = true;
      }
    }
  };

  /**
   * A container whose descendants got refs of their own keeps a ref only for text of its own (named
   * after that text); a generic clickable container with nothing of its own is dropped.
   */
  const settleContainer = (el: Element, mine: number, role: string, native: boolean) => {
    if (native) return;
    const kids = emitted.slice(mine + 1);
    const named = el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby');
    const own = named ? '' : ownText(el, new Set(kids), MAX_REST);
    const it = emittedItems[mine];
    // The rest of a name read from the whole subtree repeats the refs' own text: the container's own text replaces it.
    const rest = restOf.get(it);
    if (rest && !named) items.splice(items.indexOf(rest), 1);
    if (!own && !named && (role === 'clickable' || role === 'focusable' || isWeakRole(role))) {
      const at = items.lastIndexOf(it);
      if (at >= 0) items.splice(at, 1);
      count--;
      // An item whose only ref'd part is its label (a tree leaf's span): the label says where it is.
      const sw = structOf.get(el);
      const only = kids.length === 1 ? emittedItems[mine + 1] : undefined;
      if (sw && only && !only.st?.startsWith(sw)) only.st = only.st ? `${sw} ${only.st}` : sw;
    } else if (!named && own) {
      it.name = own.length > MAX_NAME ? nameShown(own) + '…' : own;
      it.hint = undefined;
      // What the name cannot hold follows as text, so no word of the container's own is lost.
      if (own.length > MAX_NAME) items.splice(items.lastIndexOf(it) + 1, 0, { t: '…' + own.slice(nameShown(own).length).trim(), vp: it.vp });
    }
  };

  const elInVpOf = (r: DOMRect) => r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw;

  const emitHiddenFile = (el: Element, st: CSSStyleDeclaration) => {
    emit(el, 'file', st, new DOMRect(0, 0, 0, 0));
    addState('hidden');
  };

  const addState = (word: string) => {
    const last = items[items.length - 1];
    if ('id' in last) last.st = [last.st, word].filter(Boolean).join(' ');
  };

  let root: Element | null = document.documentElement;
  if (o.root !== undefined) {
    const otherDocument = o.rootDoc !== undefined && o.rootDoc !== DOC;
    root = otherDocument ? null : get(o.root);
    if (!root) return { items: [], next: S.next, frames: 0, ms: 0, missingRoot: true, otherDocument, count: 0, url: location.href, title: document.title };
  }
  if (root) {
    const pc = o.root !== undefined && parentEl(root) ? getComputedStyle(parentEl(root)!).cursor : 'auto';
    expandOptionsOf(o.root !== undefined ? root : null);
    walk(root, pc, 0, false, false);
  }
  flush();
  // Only a positioned element (a modal, a cookie banner, a sticky header) can cover a control: pages without
  // one skip the hit tests, which cost most on big pages (elementFromPoint walks the whole layout).
  if (mayOverlap) {
    for (const { el, r, it } of toHitTest) {
      const c = coveredBy(el, r, vw, vh);
      if (c) it.cov = describeCoverer(c);
    }
  }
  clearLabelMap();
  let out = items;
  if (o.viewportOnly) out = items.filter((i) => !('vp' in i) || i.vp === 1);
  return { items: out, next: S.next, frames: S.frames.length, hosts: S.hostCandidates.length, ms: Math.round(performance.now() - t0), count, url: location.href, base: document.baseURI, title: document.title, doc: DOC, changes: changeCount() };
}

/** Hands the candidates of the last run to the CDP side (once: they count as probed from now on). */
function takeHostCandidates(): Element[] {
  const out = S.hostCandidates;
  S.hostCandidates = [];
  for (const el of out) {
    const custom = el.localName.includes('-');
    S.probed.set(el, !custom || el.matches(':defined'));
    if (custom) tagProbes.set(tagKey(el), (tagProbes.get(tagKey(el)) ?? 0) + 1);
  }
  runTagCount = new Map();
  return out;
}

/** Closed shadow roots resolved by CDP into this world: the walk enters them from now on. */
function addClosedRoots(...roots: unknown[]): number {
  let added = 0;
  for (const r of roots) {
    if (r instanceof ShadowRoot && r.host && !closedRoots.has(r.host)) {
      closedRoots.set(r.host, r);
      tagsWithClosedRoots.add(r.host.localName);
      added++;
    }
  }
  return added;
}

/** Whether an element with this style can be drawn over others: positioned out of flow, or stacked above them. */
function drawnOver(st: CSSStyleDeclaration, display: string): boolean {
  const p = st.position;
  // An inline box is never absolute or fixed (those are blockified) and cannot be transformed.
  if (display === 'inline') return p === 'sticky' || (p === 'relative' && st.zIndex !== 'auto');
  return p === 'fixed' || p === 'absolute' || p === 'sticky' || (p === 'relative' && st.zIndex !== 'auto') || st.transform !== 'none';
}

/** A cell of a table or grid, where a CSS-drawn mark carries meaning (a game board, a calendar). */
function isCell(el: Element, tag: string): boolean {
  if (tag === 'td' || tag === 'th') return true;
  const role = el.getAttribute('role');
  if (role === 'gridcell' || role === 'cell') return true;
  const p = parentEl(el);
  return !!p && /grid/.test(getComputedStyle(p).display);
}

/** Whether some child of `el` draws a box (floated items of a list that has no height itself). */
function hasRenderedChild(el: Element): boolean {
  for (let c = el.firstElementChild, i = 0; c && i < 50; c = c.nextElementSibling, i++) {
    const r = c.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) return true;
  }
  return false;
}

function isRendered(el: Element, keep?: Map<Element, { st: CSSStyleDeclaration; r: DOMRect }>): boolean {
  const r = el.getBoundingClientRect();
  const st = getComputedStyle(el);
  keep?.set(el, { st, r });
  if (r.width <= 1 || r.height <= 1) return false;
  return st.visibility === 'visible' && st.opacity !== '0';
}

function markClickable(...els: unknown[]) {
  for (const e of els) if (e instanceof Element) S.click.add(e);
  return els.length;
}

function summary(): SummaryResult {
  const q = (s: string) => document.querySelectorAll(s).length;
  const active = deepActive();
  const dialogs = Array.from(document.querySelectorAll('dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]')).filter((d) => isRendered(d));
  const dialog = dialogs[0];
  const body = document.body;
  const text = body ? clean(body.innerText.slice(0, 1500)).slice(0, 400) : '';
  return {
    url: location.href,
    title: document.title,
    viewport: [innerWidth, innerHeight],
    scroll: [Math.round(scrollX), Math.round(scrollY)],
    size: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
    counts: {
      links: q('a[href]'),
      buttons: q('button, [role=button], input[type=submit], input[type=button], input[type=reset]'),
      inputs: q('input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]), textarea, [contenteditable=""], [contenteditable=true]'),
      selects: q('select, [role=combobox], [role=listbox]'),
      forms: q('form'),
      images: q('img, svg[role=img]'),
      iframes: q('iframe, frame'),
    },
    focused: active && active !== body && active !== document.documentElement ? describeShort(active) : '',
    dialog: dialog ? cap(clean(dialog.getAttribute('aria-label')) || subtreeTextShort(dialog), 120) : '',
    text,
  };
}

function subtreeTextShort(el: Element): string {
  return clean((el as HTMLElement).innerText ?? el.textContent).slice(0, 120);
}

function describeShort(el: Element): string {
  const role = explicitRole(el) ?? nativeRole(el) ?? el.localName;
  const id = S.map.get(el);
  return `${id !== undefined ? `[${id}] ` : ''}${role} "${cap(accessibleName(el, role), 60)}"`;
}

function details(ids: number[]): DetailsResult[] {
  return ids.map((id) => {
    const el = get(id);
    if (!el) return { id, missing: true };
    const attrs: Record<string, string> = {};
    for (const a of Array.from(el.attributes)) {
      if (a.name === 'value' && (el as HTMLInputElement).type === 'password') continue;
      attrs[a.name] = cap(a.value, 200);
    }
    const r = el.getBoundingClientRect();
    const parent = parentEl(el);
    const root = el.getRootNode();
    return {
      id,
      tag: el.localName,
      attrs,
      selector: cssPath(el),
      xpath: xPath(el),
      shadowHost: root instanceof ShadowRoot ? cssPath(root.host) : undefined,
      bbox: [Math.round(r.left + scrollX), Math.round(r.top + scrollY), Math.round(r.width), Math.round(r.height)],
      parentText: parent ? cap(clean((parent as HTMLElement).innerText ?? parent.textContent), 160) : '',
      children: el.children.length,
      href: (el as HTMLAnchorElement).href && typeof (el as HTMLAnchorElement).href === 'string' ? (el as HTMLAnchorElement).href : undefined,
      text: cap(clean((el as HTMLElement).innerText ?? el.textContent), 200),
      value: fullValue(el) || undefined,
    };
  });
}

/** Current role/name/selector of a ref, for fingerprints and stale-ref messages. */
function fingerprint(id: number) {
  const el = get(id);
  if (!el) return null;
  const root = el.getRootNode();
  return { selector: (root instanceof ShadowRoot ? cssPath(root.host) + ' >>> ' : '') + cssPath(el), xpath: xPath(el) };
}

(globalThis as any).__baSnap = { run, get, doc: DOC, markClickable, markEditHosts, summary, details, fingerprint, frames: () => S.frames, takeHostCandidates, addClosedRoots, version: 1 };
