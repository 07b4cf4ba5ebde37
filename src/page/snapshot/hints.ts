// Hints for controls nothing names, from what the page's author left on them (runs inside the page):
// a description or tooltip, what the control opens, a class word, the table row it sits in, its id.
// Each beats the positional `after "…"`, which inside a table names the previous row.
import { cap, clean, hintFromToken } from './roles';

/** Attributes tooltip libraries keep their text in (title itself is part of the name already). */
const TOOLTIP_ATTRS = ['data-tooltip', 'data-title', 'data-original-title', 'data-bs-original-title', 'data-tip', 'data-hint', 'data-label'];

function idsText(el: Element, attr: string): string {
  const ids = el.getAttribute(attr);
  if (!ids) return '';
  const root = el.getRootNode() as Document | ShadowRoot;
  // A hidden tooltip still describes: textContent, not innerText.
  return clean(ids.split(/\s+/).map((id) => (root.getElementById?.(id) ?? document.getElementById(id))?.textContent ?? '').join(' '));
}

/** `Archive this person`: the control's description (aria-describedby) or a tooltip library's text. */
export function describedHint(el: Element): string {
  const d = idsText(el, 'aria-describedby') || clean(el.getAttribute('aria-description'));
  if (d) return cap(d, 60);
  for (const a of TOOLTIP_ATTRS) {
    const t = clean(el.getAttribute(a));
    if (t) return cap(t, 60);
  }
  return '';
}

/** `opens share menu`: the part the control opens or drives (aria-controls / aria-owns), by its id. */
export function controlsHint(el: Element): string {
  const id = clean(el.getAttribute('aria-controls') || el.getAttribute('aria-owns')).split(' ')[0];
  const w = id ? hintFromToken(id) : '';
  return w ? `opens ${w}` : '';
}

/** Class words that say how a thing is laid out or built, not what it does. */
const LAYOUT_WORD = /^(?:active|selected|disabled|hidden|visible|show|open|closed|clearfix|pull|float|left|right|center|top|bottom|inline|block|flex|grid|row|col|column|cell|wrap|wrapper|container|content|inner|outer|box|item|items|el|elem|element|ico|sprite|sprites|hitarea|js|ng|is|has|no|text|small|large|big|tiny|dark|light|clickable|pointer|hover|focus|round|rounded|circle|square|shadow|border|bordered|last|first|odd|even)$/;
/** Generated class names (CSS-in-JS hashes, framework scopes). */
const GENERATED = /^(?:css|sc|jsx|emotion|svelte|styled|ng|v|data)-|^_|[0-9]{2,}|^[a-z]{1,3}-?[a-z0-9]*[0-9][a-z0-9]*$/i;

function classWord(el: Element): string {
  const cls = typeof el.className === 'string' ? el.className : el.getAttribute('class') || '';
  let best = '';
  // The last fitting class: modifiers follow the base class (`btn btn-reply`, `ico reply`).
  for (const token of cls.split(/\s+/)) {
    if (!token || GENERATED.test(token)) continue;
    const words = hintFromToken(token).split(' ').filter((w) => w && !LAYOUT_WORD.test(w));
    if (words.length) best = words.join(' ');
  }
  return best;
}

/** Roles drawn as icons when unnamed: a class word reads as an icon's name (a field's class does not). */
export const ICON_ROLES = new Set(['clickable', 'focusable', 'button', 'link', 'image', 'graphic', 'tab', 'menuitem', 'switch']);

/** `reply`: a word from the class of an icon-only control or of the one icon inside it. */
export function classHint(el: Element): string {
  const own = classWord(el);
  if (own) return own;
  const kids = el.children;
  return kids.length === 1 && !clean(kids[0].textContent) ? classWord(kids[0]) : '';
}

/**
 * `row "Alice | Oslo"`: a control in a table row (a row's checkbox, an input per row) named by its own
 * row's text — the text before it belongs to the row above.
 */
export function rowHint(el: Element): string {
  const cell = el.closest('td, th, [role=gridcell], [role=cell]');
  const row = cell?.closest('tr, [role=row]');
  if (!cell || !row) return '';
  const cells = row.localName === 'tr' ? Array.from((row as HTMLTableRowElement).cells) : Array.from(row.querySelectorAll('[role=gridcell], [role=cell], [role=rowheader]'));
  const parts: string[] = [];
  for (const c of cells) {
    const t = clean((c as HTMLElement).innerText ?? c.textContent);
    if (t) parts.push(t);
    if (parts.join(' | ').length > 40) break;
  }
  const text = parts.join(' | ');
  return text ? `row ${JSON.stringify(cap(text, 40))}` : '';
}

/**
 * `id=text-area`: an id that reads as words, shown as the attribute it is (not as an icon). A generated id
 * (`sxmm_26632169_2503481`) says less than the text the control follows.
 */
export function idHint(el: Element): string {
  const id = clean(el.id);
  return id && !/\d{4,}/.test(id) && hintFromToken(id) ? `id=${cap(id, 40)}` : '';
}
