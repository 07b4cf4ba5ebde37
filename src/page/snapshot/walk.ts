// The walk: one pass over the composed tree (open and handed-over closed shadow roots, slots' assigned
// nodes) that reads each element's style and box once, decides whether it is on screen, gives refs
// (interactive.ts, emit.ts), and gathers the readable text between them with headings, list marks,
// table cells, images, SVG and landmark / scroll-area sections.
import { cap, clean, describeSvg, shadowOf } from './roles';
import { drawnMark, svgHasTargets, svgText } from './drawn';
import { imageText, keyboardReachable, landmarkOf } from './reading';
import { isDragHandle } from './gestures';
import { sectionOf } from './scrollAreas';
import { noteHostCandidate } from './closedHosts';
import { drawnOver } from './cover';
import { emit, emitHiddenFile, settleContainer } from './emit';
import { rate, type Rated } from './interactive';
import { addState, flush, inViewport, type Run } from './runState';
import { parentEl } from './tree';
import { S } from './world';

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'base', 'option', 'optgroup', 'datalist', 'param', 'source', 'track']);
const BLOCK_DISPLAY = /^(block|flex|grid|list-item|table|table-row|table-caption|flow-root)/;
/** What an element gets when it is not on screen: no ref. */
const UNRATED: Rated = { role: null, nativeRef: false };

/** `inInteractive`: see interactive.ts rate. `suppressText`: the text is a control's (its name), not the page's. */
export function walk(w: Run, el: Element, parentCursor: string, inInteractive: 0 | 1 | 2, suppressText: boolean): void {
  const tag = el.localName;
  if (SKIP.has(tag)) return;
  // A label's control was read when the label asked whether it is rendered: not read twice.
  const pre = w.preread.get(el);
  const st = pre ? pre.st : getComputedStyle(el);
  const display = st.display;
  if (display === 'none') {
    // File inputs stay reachable even when hidden behind a styled button.
    if (tag === 'input' && (el as HTMLInputElement).type === 'file') emitHiddenFile(w, el);
    return;
  }
  const hidden = st.visibility !== 'visible';
  const cursor = st.cursor;
  if (!w.mayOverlap) w.mayOverlap = drawnOver(st, display);
  const r = pre ? pre.r : el.getBoundingClientRect();
  // Off-canvas (left:-9999px) and 1px screen-reader-only boxes are not on screen.
  // An element scrolled out of a scroll area's view above or to the left is in the area, not off-canvas.
  const offCanvas = r.right + w.sx + w.scrolledX < 0 || r.bottom + w.sy + w.scrolledY < 0;
  const tiny = r.width <= 1 && r.height <= 1 && (st.overflow === 'hidden' || st.position === 'absolute' || st.position === 'fixed');
  const zeroBox = r.width === 0 && r.height === 0;
  const block = BLOCK_DISPLAY.test(display) && tag !== 'td' && tag !== 'th';
  if (block) flush(w);

  const visibleBox = !hidden && !offCanvas && r.width > 0 && r.height > 0 && !tiny;
  // Skip links and other controls parked off-screen stay listed (marked offscreen): the keyboard reaches them.
  const parked = !visibleBox && !hidden && (offCanvas || (tiny && r.width + r.height > 0)) && tag !== 'input' && keyboardReachable(el);
  // A list of floated items has no height of its own (no clearfix), yet its items are on screen.
  const spills = !visibleBox && !hidden && !offCanvas && !tiny && r.width + r.height > 0 && S.click.has(el) && st.overflowY === 'visible' && st.overflowX === 'visible' && hasRenderedChild(el);
  const rated = visibleBox || parked || spills || (tag === 'input' && (el as HTMLInputElement).type === 'file') ? rate(w, el, tag, st, r, cursor, parentCursor, inInteractive) : UNRATED;
  const { role, nativeRef } = rated;

  let mine = -1;
  if (role) {
    emit(w, el, role, r, rated.control);
    if (parked) addState(w, 'offscreen');
    if (w.reveal.has(el)) addState(w, 'opens-on-hover');
    if (isDragHandle(el, cursor, parentCursor)) addState(w, 'draggable');
    if (tag === 'select' || tag === 'textarea' || tag === 'input') return;
    mine = w.emitted.length - 1;
  } else if (tag === 'iframe' || tag === 'frame') {
    if (visibleBox) {
      flush(w);
      w.items.push({ frame: S.frames.length, vp: r.bottom > 0 && r.top < w.vh ? 1 : 0 });
      S.frames.push(el);
    }
    return;
  } else if (tag === 'svg' && visibleBox && !inInteractive && !svgHasTargets(el, (e) => S.click.has(e))) {
    w.buf += svgAsText(el);
    return;
  } else if (tag === 'img' && visibleBox && !inInteractive && !suppressText && r.width >= 2 && r.height >= 2) {
    w.buf += imageText(el);
    if (inViewport(w, r)) w.bufVp = true;
    return;
  } else if (tag === 'br') {
    w.buf += ' ';
  } else if ((tag === 'td' || tag === 'th') && !suppressText && !inInteractive) {
    w.buf += ' | ';
  }

  if (!role && visibleBox && !el.firstElementChild && !clean(el.textContent) && isCell(el, tag)) {
    // A mark drawn by CSS in a grid cell (a background image, pseudo-element content).
    const m = drawnMark(el);
    if (m) w.buf += ` (drawn: ${m}) `;
  }
  const inside: 0 | 1 | 2 = role ? (nativeRef ? 2 : inInteractive === 2 ? 2 : 1) : inInteractive;
  const quiet = suppressText || !!inside || (tag === 'label' && !!(el as HTMLLabelElement).control);
  // A clickable list that scrolls by itself (its rows are items) still says it scrolls.
  const ownsItems = !!role && !nativeRef && !suppressText && inInteractive !== 2;
  const section = hidden ? '' : !quiet ? sectionOf(landmarkOf(el), el, st) : ownsItems ? sectionOf('', el, st) : '';
  if (section) {
    flush(w);
    w.items.push({ sec: section });
  }
  const textHidden = hidden || tiny || offCanvas || (zeroBox && display !== 'contents') || (block && !el.checkVisibility());
  if (block && !quiet) w.bufPrefix = linePrefix(el, tag, w.bufPrefix);
  const elInVp = inViewport(w, r);
  const shadow = shadowOf(el);
  if (!shadow) noteHostCandidate(el, r);
  // Scroll offsets of the areas around the children: what is scrolled out above is not off-canvas.
  // (The scrolling element's offsets are the window's, already in sx/sy.)
  const scrolls = (st.overflowY !== 'visible' || st.overflowX !== 'visible') && el !== document.scrollingElement && el !== document.documentElement;
  const dx = scrolls ? el.scrollLeft : 0;
  const dy = scrolls ? el.scrollTop : 0;
  w.scrolledX += dx;
  w.scrolledY += dy;
  visitChildren(w, shadow ? shadow.firstChild : el.firstChild, cursor, inside, quiet, textHidden, elInVp);
  w.scrolledX -= dx;
  w.scrolledY -= dy;
  if (block) {
    if (!quiet) flush(w);
    else if (w.bufPrefix) w.bufPrefix = '';
  }
  if (mine >= 0 && w.emitted.length > mine + 1) settleContainer(w, el, mine, role!, nativeRef);
  if (section) {
    flush(w);
    w.items.push({ sec: '/' + section.split(' ')[0] });
  }
}

/**
 * The children of an element from `first` on, in the context their parent gives them (a slot stands for
 * its assigned nodes). One function, not closures per element: the walk visits every element.
 */
function visitChildren(w: Run, first: Node | null, cursor: string, inside: 0 | 1 | 2, quiet: boolean, textHidden: boolean, inVp: boolean): void {
  const text = !quiet && !textHidden;
  for (let c = first; c; c = c.nextSibling) {
    if (c.nodeType === 1) {
      if ((c as Element).localName === 'slot') {
        for (const a of (c as HTMLSlotElement).assignedNodes({ flatten: true })) {
          if (a.nodeType === 1) walk(w, a as Element, cursor, inside, quiet);
          else if (a.nodeType === 3 && text) {
            w.buf += a.nodeValue;
            if (inVp) w.bufVp = true;
          }
        }
        if (!(c as HTMLSlotElement).assignedNodes().length) visitChildren(w, c.firstChild, cursor, inside, quiet, textHidden, inVp);
      } else walk(w, c as Element, cursor, inside, quiet);
    } else if (c.nodeType === 3 && text) {
      w.buf += c.nodeValue;
      if (inVp) w.bufVp = true;
    }
  }
}

/** The line mark a block's text gets: `#` per heading level, `- ` for a list item; else the one it had. */
function linePrefix(el: Element, tag: string, prefix: string): string {
  if (/^h[1-6]$/.test(tag)) return '#'.repeat(+tag[1]) + ' ';
  if (el.getAttribute('role') === 'heading') return '#'.repeat(+(el.getAttribute('aria-level') || 2)) + ' ';
  if (tag === 'li') return '- ';
  return prefix;
}

/** An SVG outside controls, as text: its label, its drawn glyphs, or a lone shape (a status dot, a marker). */
function svgAsText(el: Element): string {
  const label = clean(el.getAttribute('aria-label')) || clean(el.querySelector(':scope > title')?.textContent) || clean(el.querySelector(':scope > desc')?.textContent);
  const d = describeSvg(el);
  if (label || el.getAttribute('role') === 'img') return ` [svg${label ? ` "${cap(label, 60)}"` : ''}${d ? `: ${d}` : ''}] `;
  // Glyphs drawn as SVG text are text; a lone shape (a status dot, a marker) is described.
  const t = svgText(el);
  if (t) return ` ${t} `;
  if (d && /\b(circle|rect|polygon|line|ellipse)\b/.test(d)) return ` [svg: ${d}] `;
  return '';
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
