// What CSS and SVG draw without text (runs inside the page): marks drawn as background images or
// pseudo-element content, expand/collapse carets, and SVG shapes and glyphs.
import { cap, clean, colorName, hintFromToken, shapeName } from './roles';

/** Private-use glyphs are icon-font codes: they mean nothing as text. */
const PRIVATE_USE = /[\uE000-\uF8FF]/;

/**
 * A word for an image drawn as a mark: its file name (`flag`), or a file named by one letter as that
 * letter (`x.png` → `X`: a board's mark, where a word filter would drop it).
 */
function markOfUrl(url: string): string {
  const w = hintFromToken(url);
  if (w) return w;
  const m = url.match(/(?:^|\/)([a-z0-9])(?:[-_.][^/]*)?(?:[?#].*)?$/i);
  return m ? m[1].toUpperCase() : '';
}

function pseudoContent(el: Element, which: '::before' | '::after'): string {
  const st = getComputedStyle(el, which);
  const c = st.content;
  if (!c || c === 'none' || c === 'normal') return '';
  const u = c.match(/url\(["']?([^"')]+)/);
  if (u) return markOfUrl(u[1]);
  const q = c.match(/^"(.*)"$/);
  const t = q ? q[1].replace(/\\"/g, '"') : '';
  if (!clean(t) || PRIVATE_USE.test(t)) {
    // An empty pseudo-element may still draw a mark with its background image.
    const bg = st.backgroundImage;
    const b = bg && bg !== 'none' ? bg.match(/url\(["']?([^"')]+)/) : null;
    return b ? markOfUrl(b[1]) : '';
  }
  return cap(clean(t), 20);
}

function backgroundWord(el: Element): string {
  const bg = getComputedStyle(el).backgroundImage;
  const u = bg && bg !== 'none' ? bg.match(/url\(["']?([^"')]+)/) : null;
  return u ? markOfUrl(u[1]) : '';
}

/** A short word for a mark drawn by CSS in an element without text: `queen`, `✓`, `flag`, `X`. */
export function drawnMark(el: Element): string {
  return pseudoContent(el, '::before') || pseudoContent(el, '::after') || backgroundWord(el) || swatchColor(el);
}

function opaque(css: string): boolean {
  return !!css && css !== 'transparent' && !/rgba\([^)]*,\s*0\)$/.test(css);
}

function hex(css: string): string {
  const m = css.match(/rgba?\((\d+),\s*(\d+),\s*(\d+)/);
  return m ? '#' + [m[1], m[2], m[3]].map((v) => (+v).toString(16).padStart(2, '0')).join('') : '';
}

/** Whether a colour is more than a shade of grey (a chip, a swatch), not a panel's white or grey. */
function saturated(css: string): boolean {
  const m = css.match(/rgba?\((\d+),\s*(\d+),\s*(\d+)/);
  return !!m && Math.max(+m[1], +m[2], +m[3]) - Math.min(+m[1], +m[2], +m[3]) > 40;
}

/**
 * `red #d62728`: the colour of a swatch — a small box without text whose meaning is its background
 * colour: a saturated one, or any colour where its look-alike siblings (same tag and class) differ (a palette).
 */
export function swatchColor(el: Element): string {
  if (el.firstElementChild || clean(el.textContent)) return '';
  const r = el.getBoundingClientRect();
  if (r.width > 120 || r.height > 120) return '';
  const bg = getComputedStyle(el).backgroundColor;
  if (!opaque(bg)) return '';
  let palette = saturated(bg);
  for (let s = el.parentElement?.firstElementChild, i = 0; !palette && s && i < 50; s = s.nextElementSibling, i++) {
    // A palette: boxes of the same tag and class, without text, in different colours.
    if (s !== el && s.localName === el.localName && s.className === el.className && !s.firstElementChild && !clean(s.textContent)) {
      const other = getComputedStyle(s).backgroundColor;
      if (opaque(other) && other !== bg) palette = true;
    }
  }
  return palette ? `${colorName(bg)} ${hex(bg)}` : '';
}

// jQuery's treeview marks a closed node `expandable` and an open one `collapsable` (sic).
const COLLAPSED = /(?:^|[\s_-])(collapsed|closed|folded|expandable)(?:$|[\s_-])/i;
const EXPANDED = /(?:^|[\s_-])(expanded|open|opened|unfolded|collapsable)(?:$|[\s_-])/i;
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
    for (const x of [e, e.firstElementChild]) if (x && !seen.has(x)) {
      seen.add(x);
      look.push(x);
    }
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

const SHAPES = 'circle, ellipse, rect, polygon, path, line, polyline';

/** Size words relative to the other shapes of the same drawing (a 40 px shape is large among 12 px ones). */
function sizeWord(el: Element): string {
  const m = (r: DOMRect) => Math.max(r.width, r.height);
  const own = m(el.getBoundingClientRect());
  const svg = (el as SVGElement).ownerSVGElement;
  const all = svg ? Array.from(svg.querySelectorAll(SHAPES)).slice(0, 200).map((s) => m(s.getBoundingClientRect())).filter((x) => x > 0) : [];
  if (all.length < 2) return '';
  all.sort((a, b) => a - b);
  const median = all[all.length >> 1];
  return own <= median * 0.7 ? 'small' : own >= median * 1.4 ? 'large' : '';
}

/** `red circle`, `small blue square`, `large green triangle`: one SVG shape, for a clickable shape without a name. */
export function describeShape(el: Element): string {
  const st = getComputedStyle(el);
  const color = colorName(st.fill) || colorName(st.stroke);
  return [sizeWord(el), color, shapeName(el)].filter(Boolean).join(' ');
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
