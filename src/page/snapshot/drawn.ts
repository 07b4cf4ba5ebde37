// What CSS and SVG draw without text (runs inside the page): marks drawn as background images or
// pseudo-element content, expand/collapse carets, and SVG shapes and glyphs.
import { cap, clean, colorName, hintFromToken } from './roles';

/** Private-use glyphs are icon-font codes: they mean nothing as text. */
const PRIVATE_USE = /[\uE000-\uF8FF]/;

function pseudoContent(el: Element, which: '::before' | '::after'): string {
  const st = getComputedStyle(el, which);
  const c = st.content;
  if (!c || c === 'none' || c === 'normal') return '';
  const u = c.match(/url\(["']?([^"')]+)/);
  if (u) return hintFromToken(u[1]);
  const q = c.match(/^"(.*)"$/);
  const t = q ? q[1].replace(/\\"/g, '"') : '';
  if (!clean(t) || PRIVATE_USE.test(t)) {
    // An empty pseudo-element may still draw a mark with its background image.
    const bg = st.backgroundImage;
    const b = bg && bg !== 'none' ? bg.match(/url\(["']?([^"')]+)/) : null;
    return b ? hintFromToken(b[1]) : '';
  }
  return cap(clean(t), 20);
}

function backgroundWord(el: Element): string {
  const bg = getComputedStyle(el).backgroundImage;
  const u = bg && bg !== 'none' ? bg.match(/url\(["']?([^"')]+)/) : null;
  return u ? hintFromToken(u[1]) : '';
}

/** A short word for a mark drawn by CSS in an element without text: `queen`, `✓`, `flag`. */
export function drawnMark(el: Element): string {
  return pseudoContent(el, '::before') || pseudoContent(el, '::after') || backgroundWord(el);
}

const COLLAPSED = /(?:^|[\s_-])(collapsed|closed|folded)(?:$|[\s_-])/i;
const EXPANDED = /(?:^|[\s_-])(expanded|open|opened|unfolded)(?:$|[\s_-])/i;
const FOLDER = /(?:^|[\s_-])(folder|dir|directory|branch|parent|has-children)(?:$|[\s_-])/i;
const CARET_CLOSED = /^[▶▸►›>+⊞]$/;
const CARET_OPEN = /^[▼▾⌄∨−\-⊟]$/;

function classOf(el: Element): string {
  return typeof el.className === 'string' ? el.className : el.getAttribute('class') || '';
}

/**
 * Expanded/collapsed and folder-ness as drawn by CSS: class names, caret glyphs in pseudo-elements,
 * caret or folder icons as background images, on the element, its item or their first children.
 */
export function drawnTreeState(els: Element[]): { expanded?: boolean; folder?: boolean } {
  const seen = new Set<Element>();
  const look: Element[] = [];
  for (const e of els) {
    for (const x of [e, e.firstElementChild]) if (x && !seen.has(x)) (seen.add(x), look.push(x));
  }
  let expanded: boolean | undefined;
  let folder: boolean | undefined;
  for (const e of look) {
    const words = [classOf(e), e.id, backgroundWord(e), pseudoContent(e, '::before'), pseudoContent(e, '::after')].join(' ');
    const before = pseudoContent(e, '::before');
    if (expanded === undefined) {
      if (CARET_CLOSED.test(before) || COLLAPSED.test(words)) expanded = false;
      else if (CARET_OPEN.test(before) || EXPANDED.test(words)) expanded = true;
    }
    if (FOLDER.test(words)) folder = true;
  }
  if (expanded !== undefined) folder = true;
  return { expanded, folder };
}

function sizeClass(r: DOMRect): string {
  const m = Math.max(r.width, r.height);
  return m < 16 ? 'small' : m < 64 ? '' : 'large';
}

/** `red circle`, `small blue rect`: one SVG shape, for a clickable shape without a name. */
export function describeShape(el: Element): string {
  const tag = el.localName;
  const shape = tag === 'ellipse' ? 'circle' : tag === 'polyline' ? 'line' : tag === 'g' || tag === 'a' ? 'group' : tag;
  const st = getComputedStyle(el);
  const color = colorName(st.fill) || colorName(st.stroke);
  const size = sizeClass(el.getBoundingClientRect());
  return [size, color, shape].filter(Boolean).join(' ');
}

/** The text an SVG draws with `<text>` elements (letters, digits, labels on a chart). */
export function svgText(svg: Element): string {
  const parts: string[] = [];
  for (const t of Array.from(svg.querySelectorAll('text'))) {
    const s = clean(t.textContent);
    if (s) parts.push(s);
    if (parts.length >= 20) break;
  }
  return cap(parts.join(' '), 120);
}

/** Whether an SVG holds something a person can click (then its shapes are walked like elements). */
export function svgHasTargets(svg: Element, isClick: (e: Element) => boolean): boolean {
  const all = svg.querySelectorAll('*');
  for (let i = 0; i < all.length && i < 2000; i++) {
    const e = all[i];
    if (isClick(e) || e.hasAttribute('onclick') || e.hasAttribute('tabindex') || (e.localName === 'a' && e.hasAttribute('href'))) return true;
  }
  return false;
}
