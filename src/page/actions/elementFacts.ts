/**
 * Everything an element shows or is called by, read live from the page for the risk policy. The
 * accessible name alone is what the page chooses to tell assistive technology: a hostile page can name a
 * "Delete account" button "Cancel" (aria-label), draw its word with CSS (`::before { content }`), put it
 * in an SVG `<title>` or an image's file name, or show only a trash icon (`class="icon-trash"`). The
 * policy matches its phrase lists against each of these texts, so the strongest reading wins.
 *
 * It runs in the isolated world of the element's frame (see actions/element.ts `callOnElement`),
 * so the page's own scripts cannot replace the DOM functions it calls.
 */
import { loose, type Loose } from '../dom';

/** Everything an element shows or is called by, read live from the page for the risk policy (actions/elementFacts.ts). */
export interface ElementFacts {
  tag?: string;
  type?: string;
  /** The element's own rendered text (nested links, buttons and fields left out); a button input's value. */
  visible?: string;
  /** aria-label, aria-labelledby texts, title, label elements, placeholder, alt texts. */
  labels?: string[];
  /** Text drawn by CSS `::before` / `::after` on the element and inside it. */
  drawn?: string[];
  /** `<title>`/`<desc>` of SVGs inside it. */
  svg?: string[];
  /** Words of class names, ids, `data-icon`, `name` and image file names on the element and inside it (icon hints). */
  hints?: string[];
  /** `name`, `id` and `autocomplete` attributes of a field (what payment widgets call their card field). */
  fieldAttrs?: string[];
  autocomplete?: string;
  /** A link's absolute target. */
  href?: string;
  /** The URL of the document the element lives in (an iframe's own URL). */
  frameUrl?: string;
  /** The element lives in an iframe (its document is not the top one). */
  inFrame?: boolean;
  /** The iframe's visible text, for sensitive-page phrases (only for elements in frames). */
  frameText?: string;
  /** Enter in this field submits its form (implicit submission); the texts of the form's submit buttons. */
  submitsForm?: { buttons: string[]; action?: string };
  /** A native select's options as [value, label]. */
  options?: [string, string][];
  /** Inside a form (a `<button>` without a type submits it). */
  inForm?: boolean;
  /** A password field. */
  password?: boolean;
  /** For a label: the control it activates (a click on the label clicks it). */
  control?: { tag?: string; type?: string; inForm?: boolean };
  /** Which element the facts are about: CDP's id for the node (to tell a swapped element from the previewed one). */
  node?: number;
}

/** Page text limits: enough for every phrase, never megabytes. */
const TEXT_MAX = 300;
const FRAME_TEXT_MAX = 20_000;

/**
 * With `closest`, facts of the nearest actionable ancestor of `el` (a hit-test result is often a span inside
 * the button); `'control'` when reading a label's control (not followed further).
 */
export function elementFacts(node: Node | null, closest: boolean | 'control'): ElementFacts | null {
  let el = loose(node && node.nodeType !== 1 ? node.parentElement : (node as Element | null));
  if (!el) return null;
  if (closest) {
    const a = el.closest('a[href],button,input,select,textarea,label,summary,[role],[onclick],[tabindex],[draggable=true],[contenteditable]');
    if (a) el = loose(a)!;
  }
  const clip = (s: unknown, n?: number) => String(s == null ? '' : s).replace(/\s+/g, ' ').trim().slice(0, n || TEXT_MAX);
  const doc = el.ownerDocument;
  const win = doc.defaultView!;
  const f: ElementFacts = { tag: el.localName };
  const type = el.getAttribute('type');
  if (type) f.type = type;
  const NATIVE = 'a[href],button,input,select,textarea';
  // Own text: text nodes inside, minus those of nested links, buttons and fields (a row's "Remove" button is not the row's word).
  let own = '';
  const walker = doc.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode() as Text | null; n && own.length < 2000; n = walker.nextNode() as Text | null) {
    const p = n.parentElement;
    if (!p || p.closest('script,style,template,noscript')) continue;
    const inner = p.closest(NATIVE);
    if (inner && inner !== el && el.contains(inner)) continue;
    own += ' ' + n.data;
  }
  f.visible = clip(own);
  if (el.localName === 'input') f.visible = /^(submit|button|reset|image)$/i.test(el.type!) ? clip(el.value || el.alt) : '';
  if (el.localName === 'select') f.visible = clip(el.selectedOptions && el.selectedOptions[0] ? el.selectedOptions[0].label : '');
  if (el.localName === 'textarea') f.visible = '';
  const labels: string[] = [];
  const add = (list: string[], text: unknown) => { const s = clip(text); if (s && list.length < 12 && !list.includes(s)) list.push(s); };
  add(labels, el.getAttribute('aria-label'));
  for (const id of (el.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean).slice(0, 5)) {
    const l = doc.getElementById(id);
    if (l) add(labels, l.textContent);
  }
  add(labels, el.getAttribute('aria-description'));
  add(labels, el.getAttribute('title'));
  add(labels, el.getAttribute('placeholder'));
  add(labels, el.getAttribute('alt'));
  if (el.labels) for (const l of Array.from(el.labels).slice(0, 3)) add(labels, l.textContent);
  const drawn: string[] = [], svg: string[] = [], hints: string[] = [];
  const nodes: Element[] = [el, ...Array.from(el.querySelectorAll('*')).slice(0, 40)];
  const quoted = (c: string) => { const out: string[] = []; const re = /"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g; let m; while ((m = re.exec(c || ''))) out.push((m[1] ?? m[2]).replace(/\\([0-9a-f]{1,6})\s?/gi, (_, h) => String.fromCodePoint(parseInt(h, 16))).replace(/\\(.)/g, '$1')); return out.join(''); };
  const words = (s: unknown) => String(s || '').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z]+/).filter((w) => w.length > 1);
  for (const n of nodes) {
    for (const pseudo of ['::before', '::after']) {
      const c = win.getComputedStyle(n, pseudo).content;
      if (c && c !== 'none' && c !== 'normal') add(drawn, quoted(c));
    }
    if (n.localName === 'title' || n.localName === 'desc') { if (n.closest('svg')) add(svg, n.textContent); }
    if (n !== el && n.localName === 'img') add(labels, n.getAttribute('alt'));
    if (n !== el && n.getAttribute('aria-label') && !n.closest(NATIVE + ',[role]')) add(labels, n.getAttribute('aria-label'));
    const cls = typeof n.className === 'string' ? n.className : n.getAttribute('class');
    const src = n.localName === 'img' || n.localName === 'use' || n.localName === 'image' ? (n.getAttribute('src') || n.getAttribute('href') || n.getAttribute('xlink:href') || '').split(/[?#]/)[0].split('/').pop() : '';
    for (const w of [...words(cls), ...words(n.id), ...words(n.getAttribute('data-icon')), ...words(n.getAttribute('data-testid')), ...words(src)]) if (hints.length < 40 && !hints.includes(w)) hints.push(w);
  }
  if (labels.length) f.labels = labels;
  if (drawn.length) f.drawn = drawn;
  if (svg.length) f.svg = svg;
  if (hints.length) f.hints = hints;
  if (/^(input|textarea|select)$/.test(el.localName)) {
    const attrs: string[] = [];
    for (const a of ['name', 'id', 'autocomplete', 'data-elements-stable-field-name']) add(attrs, el.getAttribute(a));
    if (attrs.length) f.fieldAttrs = attrs;
    const ac = el.getAttribute('autocomplete');
    if (ac) f.autocomplete = ac;
  }
  if (el.localName === 'a' && el.href) f.href = String(el.href).slice(0, 2000);
  if (el.localName === 'select') f.options = Array.from(el.options!).slice(0, 200).map((o) => [clip(o.value, 100), clip(o.label || o.text, 100)]);
  f.inForm = !!(el.form || el.closest('form'));
  if (el.localName === 'input' && el.type === 'password') f.password = true;
  f.frameUrl = String(doc.location && doc.location.href || doc.URL).slice(0, 2000);
  f.inFrame = win !== win.top;
  if (f.inFrame && doc.body) f.frameText = String(doc.body.innerText || '').slice(0, FRAME_TEXT_MAX);
  // Implicit submission: Enter in a one-line field of a form submits it (through its default button).
  const form = el.form || null;
  if (form && el.localName === 'input' && !/^(button|submit|reset|image|checkbox|radio|file|hidden|range|color)$/i.test(el.type!)) {
    const buttons: string[] = [];
    for (const b of (Array.from(form.querySelectorAll('button,input[type=submit],input[type=image]')) as Loose[]).concat(form.id ? (Array.from(doc.querySelectorAll('[form="' + CSS.escape(form.id) + '"]')) as Loose[]) : [])) {
      if (b.localName === 'button' && b.type !== 'submit') continue;
      if (b.localName === 'input' && !/^(submit|image)$/i.test(b.type!)) continue;
      add(buttons, b.localName === 'input' ? (b.value || b.alt || b.type) : (b.innerText || b.textContent || b.getAttribute('aria-label') || b.title));
      if (b.getAttribute('aria-label')) add(buttons, b.getAttribute('aria-label'));
    }
    f.submitsForm = { buttons, action: String(form.action || '').slice(0, 2000) };
  }
  // A label activates its control: clicking "Continue" that labels a hidden submit button "Pay now" submits.
  if (el.localName === 'label' && el.control && el.control !== el && closest !== 'control') {
    const c = elementFacts(el.control, 'control')!;
    for (const t of [c.visible, ...(c.labels || []), ...(c.drawn || [])]) if (t) add(labels, t);
    if (labels.length) f.labels = labels;
    if (c.hints) f.hints = (f.hints || []).concat(c.hints).slice(0, 60);
    f.control = { tag: c.tag, type: c.type, inForm: c.inForm };
  }
  return f;
}
