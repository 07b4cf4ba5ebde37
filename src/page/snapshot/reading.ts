// What a reader of the page needs besides the controls: landmark sections, where links go, images'
// alt text, names that come from attributes rather than labels, and controls placed off-screen on
// purpose (skip links). Pure DOM code, runs inside the page with the extractor.
import { clean, explicitRole, subtreeText } from './roles';

/**
 * Longest element name shown: a link that wraps a teaser paragraph carries its words (visible text a
 * reader needs), while a name that runs on ends in `…`.
 */
export const MAX_NAME = 200;

/**
 * The visible text of an element beyond its name's first MAX_NAME characters (a link wrapping a whole
 * teaser), so it is shown as page text after the element line instead of being cut: '' when the name
 * is not cut or does not come from the element's text.
 */
export function nameOverflow(el: Element, name: string, wholeText: (limit: number) => string = (limit) => subtreeText(el, limit)): string {
  if (name.length <= MAX_NAME || el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby')) return '';
  const shown = nameShown(name);
  const full = wholeText(MAX_REST);
  return full.startsWith(shown) ? full.slice(shown.length).trim() : '';
}

/** The most text a cut name's rest carries (a terminal's scrollback, a whole article in a link). */
export const MAX_REST = 200_000;

/**
 * The part of a name longer than MAX_NAME that its line shows (before the `…`). It ends between words when
 * a space is near: a word cut in two (`mood d…` / `…isorders.`) is found neither on the element line nor on
 * the text line after it.
 */
export function nameShown(name: string): string {
  const hard = name.slice(0, MAX_NAME - 1);
  if (name[MAX_NAME - 1] === ' ') return hard.trimEnd();
  const sp = hard.lastIndexOf(' ');
  return (sp >= MAX_NAME - 40 ? hard.slice(0, sp) : hard).trimEnd();
}

/** Short section names for landmark roles (the HTML element a reader knows). */
const LANDMARK_BY_ROLE: Record<string, string> = {
  banner: 'header', navigation: 'nav', main: 'main', complementary: 'aside', contentinfo: 'footer',
  search: 'search', form: 'form', region: 'region',
};
const SECTIONING = 'article, aside, main, nav, section, [role=article], [role=complementary], [role=main], [role=navigation], [role=region]';

export function labelOf(el: Element): string {
  const by = el.getAttribute('aria-labelledby');
  if (by) {
    const root = el.getRootNode() as Document | ShadowRoot;
    const t = clean(by.split(/\s+/).map((id) => (root.getElementById?.(id) ?? document.getElementById(id))?.textContent ?? '').join(' '));
    if (t) return t;
  }
  return clean(el.getAttribute('aria-label'));
}

/**
 * The landmark `el` opens, as a section line (`nav "Primary"`, `main`), or '' when it is none.
 * `header`/`footer` count only at page level (not inside an article or section); forms and regions
 * only when named, as in the ARIA mapping.
 */
export function landmarkOf(el: Element): string {
  const tag = el.localName;
  const role = explicitRole(el);
  let kind = role ? LANDMARK_BY_ROLE[role] : undefined;
  if (!kind && !role) {
    if (tag === 'nav' || tag === 'main' || tag === 'aside' || tag === 'search' || tag === 'form') kind = tag;
    else if (tag === 'section') kind = 'region';
    else if ((tag === 'header' || tag === 'footer') && !el.parentElement?.closest(SECTIONING)) kind = tag;
  }
  if (!kind) return '';
  const name = labelOf(el);
  if ((kind === 'form' || kind === 'region') && !name) return '';
  return name ? `${kind} ${JSON.stringify(name.length > 60 ? name.slice(0, 59) + '…' : name)}` : kind;
}

/**
 * The target of a link element (a/area with href) as written: the CDP side resolves it against the
 * document's base URL (reading the resolved `href` property costs a URL parse per link in the page).
 */
export function linkHref(el: Element): string | undefined {
  if (el.localName !== 'a' && el.localName !== 'area') return undefined;
  return el.getAttribute('href') ?? undefined;
}

/**
 * `name=q`: what identifies a form field that no label, placeholder or title names. Shown as an
 * attribute, not as a label, so a model does not take it for visible text. A `<button>` that shows
 * only an icon says what it sends: `value=Search` (its `value` is not part of its name in HTML).
 */
export function attributeName(el: Element): string {
  const tag = el.localName;
  const attr = tag === 'button' ? (clean(el.getAttribute('value')) ? 'value' : 'name') : tag === 'input' || tag === 'textarea' || tag === 'select' ? 'name' : '';
  const n = attr && clean(el.getAttribute(attr));
  return n ? `${attr}=${n.length > 40 ? n.slice(0, 39) + '…' : n}` : '';
}

/** An informative image as a text line: `![alt]` (decorative images, with empty alt, say nothing). */
export function imageText(el: Element): string {
  const alt = clean(el.getAttribute('alt'));
  return alt ? ` ![${alt}] ` : '';
}

/**
 * A control moved off-screen on purpose (a skip link at left:-10000px) that the keyboard still
 * reaches: natively focusable or with a non-negative tabindex.
 */
export function keyboardReachable(el: Element): boolean {
  if (el.hasAttribute('tabindex')) return (el as HTMLElement).tabIndex >= 0;
  const tag = el.localName;
  if (tag === 'a' || tag === 'area') return el.hasAttribute('href');
  if (tag === 'button' || tag === 'select' || tag === 'textarea' || tag === 'summary') return !(el as HTMLButtonElement).disabled;
  if (tag === 'input') return (el as HTMLInputElement).type !== 'hidden' && !(el as HTMLInputElement).disabled;
  return false;
}
