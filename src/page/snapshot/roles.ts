// Role, name and state rules of the in-page extractor. Pure DOM code (runs inside the page).

/** ARIA roles a user can act on; containers such as `menu` or `grid` are left to their items. */
export const INTERACTIVE_ROLES = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
  'option', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem', 'gridcell', 'listbox',
  'scrollbar', 'row', 'columnheader',
]);

/** Roles that only count when the element is also focusable or clickable (they are often plain layout). */
const WEAK_ROLES = new Set(['gridcell', 'row', 'columnheader', 'listbox', 'scrollbar']);

const INPUT_ROLES: Record<string, string> = {
  checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox',
  submit: 'button', button: 'button', reset: 'button', image: 'button', file: 'file', color: 'colorpicker',
  date: 'datepicker', 'datetime-local': 'datepicker', month: 'datepicker', week: 'datepicker', time: 'timepicker',
};

export function explicitRole(el: Element): string | null {
  const r = el.getAttribute('role');
  if (!r) return null;
  return r.trim().split(/\s+/)[0].toLowerCase() || null;
}

/** The role a model sees, or null when the tag alone does not make the element interactive. */
export function nativeRole(el: Element): string | null {
  const tag = el.localName;
  switch (tag) {
    case 'a':
    case 'area':
      return el.hasAttribute('href') ? 'link' : null;
    case 'button':
      return 'button';
    case 'summary':
      return 'button';
    case 'select':
      return (el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1 ? 'listbox' : 'combobox';
    case 'textarea':
      return 'textbox';
    case 'input': {
      const type = ((el as HTMLInputElement).type || 'text').toLowerCase();
      if (type === 'hidden') return null;
      if ((type === 'text' || type === 'email' || type === 'tel' || type === 'url') && el.hasAttribute('list')) return 'combobox';
      return INPUT_ROLES[type] ?? 'textbox';
    }
    case 'video':
    case 'audio':
      return el.hasAttribute('controls') ? tag : null;
    default:
      return null;
  }
}

export function isWeakRole(role: string): boolean {
  return WEAK_ROLES.has(role);
}

/** Collapses whitespace and trims. */
export function clean(s: string | null | undefined): string {
  return s ? s.replace(/\s+/g, ' ').trim() : '';
}

export function cap(s: string, n: number): string {
  return s.length > n ? s.slice(0, n - 1).trimEnd() + '…' : s;
}

/** Tags whose text a browser separates from its neighbours (no layout needed to know it). */
export const BLOCKISH = /^(?:br|p|div|li|ul|ol|h[1-6]|section|article|header|footer|nav|aside|main|figure|figcaption|blockquote|pre|table|tr|td|th|dt|dd|dl|hr|form|fieldset|legend|address|details|summary)$/;

const DRAWN_AS_BLOCK = /^(?:block|flex|grid|list-item|table|flow-root)/;

/**
 * Visible-ish text of a subtree (skips script/style and aria-hidden icon glyphs). Layout is asked about
 * only where an inline tag may be drawn as a block, which separates words the markup runs together.
 */
export function subtreeText(el: Element, limit = 200): string {
  let out = '';
  let alts = false;
  const walk = (n: Node) => {
    if (out.length > limit) return;
    if (n.nodeType === 3) {
      // Collapse as we go: indentation whitespace must not eat the length limit.
      const t = n.nodeValue!.replace(/\s+/g, ' ');
      out += t === ' ' && out.endsWith(' ') ? '' : t;
      return;
    }
    if (n.nodeType !== 1) return;
    const e = n as Element;
    const tag = e.localName;
    if (tag === 'script' || tag === 'style' || tag === 'noscript' || tag === 'template') return;
    // Hidden descendants (collapsed children, closed menus) never feed a name.
    if (e !== el && e.checkVisibility && !e.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions)) return;
    if (tag === 'img') {
      const alt = e.getAttribute('alt')?.replace(/[\u0001\u0002]/g, '');
      // Marked, as long as the spaces it stands for: whether it stays is known once its neighbours are read.
      if (alt) {
        out += '\u0001' + alt + '\u0002';
        alts = true;
      }
      return;
    }
    if (tag === 'svg') {
      const t = e.querySelector('title');
      if (t?.textContent) out += ' ' + t.textContent + ' ';
      return;
    }
    const label = e !== el ? e.getAttribute('aria-label') : null;
    if (label) {
      out += ' ' + label + ' ';
      return;
    }
    // Text of a span drawn as a block (a teaser's title, then its source) is a separate word too.
    const blockish = BLOCKISH.test(tag) || (e !== el && (/[^\s]$/.test(out) || !!e.nextSibling) && DRAWN_AS_BLOCK.test(getComputedStyle(e).display));
    if (blockish && !out.endsWith(' ')) out += ' ';
    const sr = shadowOf(e);
    if (sr) for (let c = sr.firstChild; c; c = c.nextSibling) walk(c);
    for (let c = e.firstChild; c; c = c.nextSibling) walk(c);
    if (blockish && !out.endsWith(' ')) out += ' ';
  };
  walk(el);
  return clean(alts ? dropEchoedAlts(out) : out);
}

const words = (s: string) => (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');
const ALT = /\u0001([^\u0002]*)\u0002/g;

/**
 * An image's alt that the text right next to it says again (a teaser's picture and its caption, both
 * "X") is left out of the name: a person sees the caption once, and `link "X X"` was a stutter no one
 * reads (qq, daringfireball-1, salon-1). An alt only beside other images or no text stays.
 */
function dropEchoedAlts(out: string): string {
  return out.replace(ALT, (_m, alt: string, at: number) => {
    const a = words(alt);
    if (!a) return ' ' + alt + ' ';
    // Only the neighbourhood is read: a whole teaser's text (reading.ts asks for 200,000 characters) is not.
    const span = 2 * alt.length + 40;
    const before = words(out.slice(Math.max(0, at - span), at).replace(ALT, ' ').replace(/^[^\u0001]*\u0002/, ' '));
    const after = words(out.slice(at + alt.length + 2, at + alt.length + 2 + span).replace(ALT, ' ').replace(/\u0001[^\u0002]*$/, ' '));
    const echoed = (after + ' ').startsWith(a + ' ') || (' ' + before).endsWith(' ' + a);
    return echoed ? ' ' : ' ' + alt + ' ';
  });
}

function byIds(el: Element, attr: string): string {
  const ids = el.getAttribute(attr);
  if (!ids) return '';
  const root = el.getRootNode() as Document | ShadowRoot;
  return clean(
    ids
      .split(/\s+/)
      .map((id) => {
        const t = root.getElementById?.(id) ?? document.getElementById(id);
        return t ? subtreeText(t, 120) : '';
      })
      .join(' '),
  );
}

/**
 * Controls → their labels, built once per run: `input.labels` searches the whole tree scope on
 * each call, which is quadratic on big forms.
 */
let labelMap: Map<Element, HTMLLabelElement[]> | null = null;
export function buildLabelMap(doc: Document) {
  labelMap = new Map();
  for (const l of Array.from(doc.querySelectorAll('label'))) {
    const c = l.control;
    if (!c) continue;
    const list = labelMap.get(c);
    if (list) list.push(l);
    else labelMap.set(c, [l]);
  }
}
export function clearLabelMap() {
  labelMap = null;
}
export function labelsOf(el: Element): ArrayLike<HTMLLabelElement> | null {
  if (labelMap && el.getRootNode() === document) return labelMap.get(el) ?? null;
  return (el as HTMLInputElement).labels;
}

function labelsText(el: Element): string {
  const labels = labelsOf(el);
  if (!labels || !labels.length) return '';
  const parts: string[] = [];
  for (const l of Array.from(labels)) {
    // A label wrapping its input would repeat the input's own value; take only its text nodes and non-control parts.
    let t = '';
    const walk = (n: Node) => {
      if (n === el) return;
      if (n.nodeType === 3) t += n.nodeValue;
      else if (n.nodeType === 1) {
        const tag = (n as Element).localName;
        if (tag === 'select' || tag === 'textarea' || tag === 'input' || tag === 'script' || tag === 'style') return;
        for (let c = n.firstChild; c; c = c.nextSibling) walk(c);
      }
    };
    walk(l);
    parts.push(t);
  }
  return clean(parts.join(' '));
}

const GENERIC = new Set(['btn', 'button', 'icon', 'icons', 'img', 'image', 'svg', 'link', 'item', 'wrapper', 'container', 'inner', 'outer', 'default', 'active', 'primary', 'secondary', 'small', 'large', 'sprite', 'sprites', 'sprite sheet', 'spritesheet']);

/** A readable word from a file name or class, e.g. `/img/icon-search@2x.png` → `search`. */
export function hintFromToken(s: string): string {
  const m = s.match(/([^/\\?#]+?)(?:@\dx)?(?:\.[a-z0-9]+)?(?:[?#].*)?$/i);
  let word = (m ? m[1] : s).replace(/^(?:fa|fas|far|fab|bi|icon|icons|ico|glyphicon|material-icons|mdi|ion|ti|la|btn|button|svg|img|sprite)[-_]+/i, '');
  word = word.replace(/[-_]+(?:icon|ico|btn|button|svg|img|sm|lg|xl|\d+)$/i, '');
  word = word.replace(/[-_]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').trim().toLowerCase();
  if (!word || GENERIC.has(word) || word.length < 2 || /^[a-z0-9]{1,2}$|^[0-9a-f]{6,}$|^\d+$/.test(word)) return '';
  return word;
}

const ICON_CLASS = /(?:^|\s)(?:fa|fas|far|fab|bi|icon|glyphicon|mdi|ion|ti|la|material-icons)[-_]([a-z0-9-]+)/i;
const HINT_CLASS = /(?:^|[\s_-])(close|search|menu|cart|basket|user|account|login|logout|settings|share|like|heart|star|play|pause|next|prev|previous|back|forward|delete|trash|remove|add|plus|minus|edit|download|upload|expand|collapse|more|help|info|home|bell|notifications?|filter|sort|refresh|reload|copy|print|mail|email|facebook|twitter|linkedin|instagram|youtube|github|burger|hamburger|toggle|dropdown|arrow[-_]?(?:left|right|up|down))(?:$|[\s_-])/i;

/** Name for an element nothing names: icon class, background/content image, inner img/svg file name (an id is no icon: hints.ts). */
export function iconHint(el: Element): string {
  const candidates: Element[] = [el];
  const inner = el.querySelector('i, span, svg, img, use');
  if (inner) candidates.push(inner);
  for (const c of candidates) {
    const cls = typeof c.className === 'string' ? c.className : c.getAttribute('class') || '';
    const m = cls.match(ICON_CLASS);
    if (m) {
      const w = hintFromToken(m[1]);
      if (w) return w;
    }
    const h = cls.match(HINT_CLASS);
    if (h) return h[1].toLowerCase().replace(/[-_]/g, ' ');
    if (c.localName === 'img') {
      const w = hintFromToken((c as HTMLImageElement).getAttribute('src') || '');
      if (w) return w;
    }
    if (c.localName === 'use') {
      const href = c.getAttribute('href') || c.getAttribute('xlink:href') || '';
      const w = hintFromToken(href.replace(/^.*#/, ''));
      if (w) return w;
    }
    const st = getComputedStyle(c);
    for (const v of [st.backgroundImage, getComputedStyle(c, '::before').content, getComputedStyle(c, '::before').backgroundImage]) {
      const u = v && v !== 'none' ? v.match(/url\(["']?([^"')]+)/) : null;
      if (u) {
        const w = hintFromToken(u[1]);
        if (w) return w;
      }
    }
  }
  return '';
}

/** Accessible name, simplified from the accname algorithm, plus the fallbacks models need. */
export function accessibleName(el: Element, role: string): string {
  let n = byIds(el, 'aria-labelledby') || clean(el.getAttribute('aria-label'));
  if (n) return n;
  const tag = el.localName;
  if (tag === 'input' || tag === 'textarea' || tag === 'select') {
    const type = (el as HTMLInputElement).type;
    if (tag === 'input' && (type === 'submit' || type === 'button' || type === 'reset')) {
      n = clean((el as HTMLInputElement).value) || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '');
      if (n) return n;
    }
    if (tag === 'input' && type === 'image') n = clean(el.getAttribute('alt'));
    n = n || labelsText(el) || clean(el.getAttribute('placeholder')) || clean(el.getAttribute('title'));
    if (n) return n;
    if (tag === 'input' && type === 'file') return 'Choose file';
    // The `name` attribute is not a label: the extractor shows it as `name=…` (reading.ts).
    return '';
  }
  if (tag === 'img') return clean(el.getAttribute('alt')) || clean(el.getAttribute('title'));
  if (role !== 'textbox' && role !== 'searchbox' && role !== 'combobox' && role !== 'listbox' && role !== 'slider') {
    n = subtreeText(el, 240);
    // A bare glyph ("×", "›") says less than a title: prefer the title, keep the glyph otherwise.
    if (n && !/[\p{L}\p{N}]/u.test(n)) return clean(el.getAttribute('title')) || n;
    if (n) return n;
  }
  n = clean(el.getAttribute('title'));
  if (n) return n;
  if (tag === 'svg' || el.querySelector('svg')) {
    const t = el.querySelector('title');
    if (t) return clean(t.textContent);
  }
  return clean(el.getAttribute('placeholder'));
}

const COLORS: Array<[string, number, number, number]> = [
  ['black', 0, 0, 0], ['white', 255, 255, 255], ['gray', 128, 128, 128], ['red', 220, 30, 30], ['green', 30, 160, 50],
  ['blue', 30, 70, 220], ['yellow', 240, 220, 30], ['orange', 255, 140, 0], ['purple', 130, 40, 170], ['pink', 255, 130, 190],
  ['brown', 140, 80, 30], ['cyan', 0, 200, 220],
];

export function colorName(css: string): string {
  const m = css.match(/rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?/);
  if (!m || m[4] === '0') return '';
  const [r, g, b] = [+m[1], +m[2], +m[3]];
  let best = '';
  let bestD = Infinity;
  for (const [name, cr, cg, cb] of COLORS) {
    const d = (r - cr) ** 2 + (g - cg) ** 2 + (b - cb) ** 2;
    if (d < bestD) {
      bestD = d;
      best = name;
    }
  }
  return best;
}

const POLYGONS = ['', '', 'line', 'triangle', 'quadrilateral', 'pentagon', 'hexagon'];

/** What a shape element draws: `triangle` for a 3-point polygon, `square` for a rect with equal sides. */
export function shapeName(el: Element): string {
  const tag = el.localName;
  if (tag === 'ellipse') return 'circle';
  if (tag === 'polyline') return 'line';
  if (tag === 'g' || tag === 'a') return 'group';
  if (tag === 'polygon') {
    const n = ((el.getAttribute('points') ?? '').match(/-?[\d.]+(?:e-?\d+)?/gi) ?? []).length >> 1;
    return POLYGONS[n] || 'polygon';
  }
  if (tag === 'rect') {
    const r = el.getBoundingClientRect();
    return r.width > 0 && Math.abs(r.width - r.height) <= Math.max(1, r.width * 0.05) ? 'square' : 'rect';
  }
  return tag;
}

/** `red circle, blue rect "42"`: what an SVG shows, so a model can tell shapes apart. */
export function describeSvg(svg: Element): string {
  const parts: string[] = [];
  const shapes = svg.querySelectorAll('circle, ellipse, rect, polygon, path, line, polyline, text');
  for (let i = 0; i < shapes.length && parts.length < 3; i++) {
    const s = shapes[i];
    if (s.localName === 'text') {
      const t = clean(s.textContent);
      if (t) parts.push(`text "${cap(t, 30)}"`);
      continue;
    }
    const st = getComputedStyle(s);
    const color = colorName(st.fill) || colorName(st.stroke);
    const shape = shapeName(s);
    if (shape === 'path' && shapes.length > 1 && !color) continue;
    parts.push(color ? `${color} ${shape}` : shape);
  }
  if (shapes.length > 3 && parts.length) parts.push('…');
  return parts.join(', ');
}

/** Closed shadow roots handed to us by the CDP side (page code cannot reach them; CDP can), by host. */
export const closedRoots = new WeakMap<Element, ShadowRoot>();

/** The shadow root of a host, open or closed (closed ones only once registered). */
export function shadowOf(e: Element): ShadowRoot | null {
  return e.shadowRoot ?? closedRoots.get(e) ?? null;
}
