// Elements a person acts on by hovering or dragging rather than clicking (runs inside the page, with the
// extractor). A menu that opens on CSS `:hover` has no listener, role or pointer cursor to give it away, and a
// drag handle says so only by `draggable` or a grab cursor: without these signals such items get no ref, and a
// model cannot hover or drag them.

/** Style properties whose change on :hover shows something hidden. */
const REVEALS = ['display', 'visibility', 'opacity', 'max-height', 'height', 'transform', 'clip-path', 'pointer-events'];
/** Bounds for pages with huge style sheets. */
const MAX_RULES = 20_000;
const MAX_CANDIDATES = 400;

interface HoverRule {
  /** The hovered element, `:hover` removed (`nav li`). */
  host: string;
  /** What it reveals, from the host (`> ul`). */
  reveal: string;
}

/** Parsed per style sheet, re-parsed when its rule count changes. */
const parsed = new WeakMap<CSSStyleSheet, { n: number; rules: HoverRule[] }>();

/** Selectors of a list, split at top-level commas (`:is(a, b)` stays whole). */
function splitList(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      out.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(list.slice(start).trim());
  return out;
}

/** `nav li:hover > ul` → host `nav li`, reveal `> ul`; a `:hover` that styles the element itself gives nothing. */
function hoverRule(sel: string): HoverRule | null {
  const at = sel.lastIndexOf(':hover');
  if (at < 0) return null;
  let depth = 0;
  let end = at + 6;
  for (; end < sel.length; end++) {
    const c = sel[end];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0 && (c === ' ' || c === '>' || c === '+' || c === '~')) break;
  }
  const reveal = sel.slice(end).trim();
  // Descendants only: a sibling shown on hover is a tooltip more often than a menu.
  if (!reveal || /^[+~]/.test(reveal)) return null;
  let host = sel.slice(0, end).replace(/:hover/g, '').trim();
  if (!host || /[>+~]$/.test(host)) host += '*';
  return { host, reveal: reveal.startsWith('>') ? reveal : ' ' + reveal };
}

function rulesOf(sheet: CSSStyleSheet, budget: { n: number }): HoverRule[] {
  let list: CSSRuleList;
  try {
    list = sheet.cssRules; // cross-origin sheets throw
  } catch {
    return [];
  }
  const cached = parsed.get(sheet);
  if (cached && cached.n === list.length) return cached.rules;
  const rules: HoverRule[] = [];
  const visit = (l: CSSRuleList) => {
    for (let i = 0; i < l.length && budget.n-- > 0; i++) {
      const r = l[i] as CSSStyleRule & { cssRules?: CSSRuleList };
      if (r.selectorText !== undefined) {
        if (r.selectorText.includes(':hover') && REVEALS.some((p) => r.style.getPropertyValue(p))) {
          for (const s of splitList(r.selectorText)) {
            const h = hoverRule(s);
            if (h) rules.push(h);
          }
        }
      } else if (r.cssRules) visit(r.cssRules); // @media, @supports, @layer
    }
  };
  visit(list);
  parsed.set(sheet, { n: list.length, rules });
  return rules;
}

/** What a menu shows: entries to act on (a tooltip's text or a decoration is not one). */
const ENTRIES = 'a[href],button,input,select,li,[role=menuitem],[role=option],[role=menu],[tabindex],[onclick]';

function actionable(el: Element): boolean {
  return el.matches(ENTRIES) || !!el.querySelector(ENTRIES);
}

function hidden(el: Element): boolean {
  return !el.checkVisibility({ opacityProperty: true, visibilityProperty: true } as CheckVisibilityOptions) || el.getBoundingClientRect().height === 0;
}

/**
 * Elements whose CSS `:hover` shows a descendant that is hidden now (or shown now because the mouse is on
 * them): the entries of hover menus. One pass per snapshot; style sheets are parsed once.
 */
export function hoverRevealers(doc: Document = document): Set<Element> {
  const out = new Set<Element>();
  const budget = { n: MAX_RULES };
  let candidates = 0;
  for (const sheet of Array.from(doc.styleSheets)) {
    for (const rule of rulesOf(sheet, budget)) {
      let hosts: NodeListOf<Element>;
      try {
        hosts = doc.querySelectorAll(rule.host);
      } catch {
        continue; // a selector this engine does not take from the page's own sheet
      }
      for (const el of Array.from(hosts)) {
        if (out.has(el)) continue;
        if (++candidates > MAX_CANDIDATES) return out;
        let shown: Element | null = null;
        try {
          shown = el.querySelector(':scope' + rule.reveal);
        } catch {
          break;
        }
        if (shown && actionable(shown) && (hidden(shown) || el.matches(':hover'))) out.add(el);
      }
    }
  }
  return out;
}

/** A drag handle: `draggable="true"` (HTML5 drag and drop) or its own grab/move cursor. */
export function isDragHandle(el: Element, cursor: string, parentCursor: string): boolean {
  return el.getAttribute('draggable') === 'true' || ((cursor === 'grab' || cursor === 'move') && parentCursor !== cursor);
}

/** Elements with a double-click listener (frames.ts marks them): acted on by double-click; a table's cells are then edited in place. */
const editHosts = new WeakSet<Element>();

export function markEditHosts(...els: unknown[]): number {
  for (const e of els) if (e instanceof Element) editHosts.add(e);
  return els.length;
}

/** A data cell of a table (or row, or body) that handles double-clicks: a cell to double-click and edit. */
export function isEditCell(el: Element): boolean {
  if (el.localName !== 'td') return false;
  for (let e: Element | null = el; e && e.localName !== 'body'; e = e.parentElement) {
    if (editHosts.has(e)) return true;
    if (e.localName === 'table') return false;
  }
  return false;
}

/** An element that handles double-clicks itself (not a table part: there its cells are the targets). */
export function isDoubleClickable(el: Element): boolean {
  return editHosts.has(el) && !/^(?:table|thead|tbody|tfoot|tr)$/.test(el.localName);
}
