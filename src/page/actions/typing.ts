/** Fields as typing finds them (actions/type.ts): their kind, the caret, values set the way pickers set them. */
import { loose, type Loose } from '../dom';
import { ignore } from '../ignore';

export interface FieldInfo {
  kind: 'text' | 'editable' | 'valueOnly' | 'stepper' | 'other';
  secret: boolean;
  focused: boolean;
  inputType?: string;
  readOnly?: boolean;
  value?: string;
  /** Elements in its document before the click (a read-only field may open a picker when clicked). */
  count?: number;
}

/** What kind of field it is and whether it has focus (deep, through shadow roots and frames' own docs). */
export function inspectField(node: Element): FieldInfo {
  const el = loose(node)!;
  const closed = new Map<Element, ShadowRoot>();
  for (let n = el.getRootNode() as ShadowRoot; n && n.host; n = n.host.getRootNode() as ShadowRoot) closed.set(n.host, n);
  let a = document.activeElement;
  for (let sr = a && (a.shadowRoot || closed.get(a)); sr && sr.activeElement; sr = a!.shadowRoot || closed.get(a!)) a = sr.activeElement;
  const focused = a === el;
  const tag = el.localName;
  const type = (el.type || '').toLowerCase();
  if (tag === 'textarea') return el.readOnly || el.getAttribute('aria-readonly') === 'true' ? { kind: 'text', secret: false, focused, readOnly: true, value: el.value } : { kind: 'text', secret: false, focused };
  if (tag === 'input') {
    if (['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range'].includes(type)) return { kind: 'valueOnly', secret: false, focused, inputType: type };
    if (['checkbox', 'radio', 'file', 'button', 'submit', 'reset', 'image', 'hidden'].includes(type)) return { kind: 'other', secret: false, focused, inputType: type };
    const secret = type === 'password' || /one-time-code|cc-/.test(el.autocomplete || '');
    if (el.readOnly || el.getAttribute('aria-readonly') === 'true') return { kind: 'text', secret, focused, inputType: type, readOnly: true, value: secret ? '' : el.value, count: el.ownerDocument.getElementsByTagName('*').length };
    return { kind: 'text', secret, focused, inputType: type };
  }
  if (el.isContentEditable) return { kind: 'editable', secret: false, focused };
  const role = el.getAttribute('role');
  if (role === 'spinbutton' || role === 'slider') return { kind: 'stepper', secret: false, focused };
  if (role === 'textbox' || role === 'searchbox' || role === 'combobox' || role === 'spinbutton') return { kind: 'editable', secret: false, focused };
  return { kind: 'other', secret: false, focused, inputType: tag };
}

/** Puts the caret where typing should go: everything selected (to replace) or at the end. */
export function placeCaret(node: Element, selectAll: boolean): void {
  const el = node as HTMLInputElement;
  el.focus();
  if (el.localName === 'input' || el.localName === 'textarea') {
    if (selectAll) el.select();
    else { try { el.setSelectionRange(el.value.length, el.value.length); } catch (e) { ignore(e, 'a type without a caret (email, number)'); } }
    return;
  }
  const sel = el.ownerDocument.getSelection()!;
  const range = el.ownerDocument.createRange();
  range.selectNodeContents(el);
  if (!selectAll) range.collapse(false);
  sel.removeAllRanges();
  sel.addRange(range);
}

/** Date, time, color and range inputs take a value string, as their pickers would set it. */
export function setValue(el: HTMLInputElement, value: string): string {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  setter.call(el, value);
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return el.value;
}

/** A field's value, or an editor's text (its first 500 characters). */
export function readValue(node: Element): string {
  const el = loose(node)!;
  return el.localName === 'input' || el.localName === 'textarea' ? el.value! : (el.innerText || '').slice(0, 500);
}

/** How many elements the element's document has (a read-only field that opens a picker adds some). */
export function elementCount(el: Element): number {
  return el.ownerDocument.getElementsByTagName('*').length;
}

/** After a click on `el`: the text field the page moved the caret to instead (deep), described, or ''. */
export function focusMoved(el: Element): string {
  let f = el.ownerDocument.activeElement;
  while (f && f.shadowRoot && f.shadowRoot.activeElement) f = f.shadowRoot.activeElement;
  const a: Loose | null = loose(f);
  if (!a || a === el || a === el.ownerDocument.body || el.contains(a)) return '';
  const t = (a.type || '').toLowerCase();
  const field = a.localName === 'textarea' || (a.localName === 'input' && !['checkbox', 'radio', 'file', 'button', 'submit', 'reset', 'image', 'range', 'color'].includes(t)) || a.isContentEditable;
  if (!field) return '';
  const name = (a.getAttribute('aria-label') || (a.labels && a.labels[0] && a.labels[0].innerText) || a.placeholder || a.name || '').trim().replace(/\s+/g, ' ').slice(0, 60);
  return 'textbox' + (name ? ' "' + name + '"' : ' (' + a.localName + ')');
}
