// State words of an interactive element: `checked`, `expanded`, `value="…"`, never a password.
import { cap, clean } from './roles';
import { optionLabel, optionsWord } from './options';

const q = (s: string) => JSON.stringify(cap(s, 60));
/** Longer values are cut with an explicit marker; the full value goes to details and find. */
export const VALUE_CUT = 60;

/** `value="first 60 chars…"(+250 chars)`: a cut a model can see, never a silent one. */
export function valueWord(v: string): string {
  if (v.length <= VALUE_CUT) return `value=${JSON.stringify(v)}`;
  return `value=${JSON.stringify(v.slice(0, VALUE_CUT) + '…')}(+${v.length - VALUE_CUT} chars)`;
}

/** The full value of a text control (never a password), or '' when it has none. */
export function fullValue(el: Element): string {
  const tag = el.localName;
  if (tag === 'textarea') return (el as HTMLTextAreaElement).value;
  if (tag === 'input') {
    const t = (el as HTMLInputElement).type;
    if (t === 'password' || t === 'checkbox' || t === 'radio' || t === 'file') return '';
    return (el as HTMLInputElement).value;
  }
  if ((el as HTMLElement).isContentEditable) return clean((el as HTMLElement).innerText);
  return '';
}

function aria(el: Element, name: string): string | null {
  return el.getAttribute('aria-' + name);
}

/** `accesskey=Alt+s`: the combination browser_press_key sends to activate it (Control+Alt on macOS, as Chrome has it). */
function accessKeyOf(el: Element): string {
  const k = el.getAttribute('accesskey')?.trim();
  if (!k || [...k].length !== 1 || k === '"') return '';
  return `accesskey=${/Mac/.test(navigator.platform) ? 'Control+Alt' : 'Alt'}+${k}`;
}

/** `sorted ascending` for a column header with aria-sort, or the button/link inside one that sorts it. */
function sortOf(el: Element, role: string): string {
  if (role !== 'columnheader' && role !== 'rowheader' && role !== 'button' && role !== 'link') return '';
  const head = el.closest('th[aria-sort], [role=columnheader][aria-sort], [role=rowheader][aria-sort]');
  const s = head?.getAttribute('aria-sort');
  return s === 'ascending' || s === 'descending' || s === 'other' ? `sorted ${s}` : '';
}

export function elementStates(el: Element, role: string, focused: boolean): string {
  const out: string[] = [];
  const tag = el.localName;
  const input = el as HTMLInputElement;
  const isInput = tag === 'input';

  if (isInput && (input.type === 'checkbox' || input.type === 'radio')) {
    if (input.indeterminate) out.push('mixed');
    else if (input.checked) out.push('checked');
  } else {
    const c = aria(el, 'checked');
    if (c === 'true') out.push('checked');
    else if (c === 'mixed') out.push('mixed');
  }
  if (aria(el, 'selected') === 'true' || (tag === 'option' && (el as HTMLOptionElement).selected)) out.push('selected');
  const exp = aria(el, 'expanded');
  if (exp === 'true') out.push('expanded');
  else if (exp === 'false') out.push('collapsed');
  if (tag === 'summary') out.push((el.parentElement as HTMLDetailsElement | null)?.open ? 'expanded' : 'collapsed');
  const pressed = aria(el, 'pressed');
  if (pressed === 'true') out.push('pressed');
  else if (pressed === 'mixed') out.push('mixed');
  if (aria(el, 'current') && aria(el, 'current') !== 'false') out.push('current');
  const key = accessKeyOf(el);
  if (key) out.push(key);
  const sorted = sortOf(el, role);
  if (sorted) out.push(sorted);
  if (el.matches(':disabled') || aria(el, 'disabled') === 'true') out.push('disabled');
  if ((el as HTMLInputElement).readOnly || aria(el, 'readonly') === 'true') out.push('readonly');
  if ((el as HTMLInputElement).required || aria(el, 'required') === 'true') out.push('required');
  if (aria(el, 'invalid') === 'true' || el.matches(':user-invalid')) out.push('invalid');
  if (focused) out.push('focused');

  if (tag === 'textarea') {
    out.push('multiline');
    const v = (el as HTMLTextAreaElement).value;
    if (v) out.push(valueWord(v));
  } else if (isInput) {
    const type = input.type;
    if (type === 'password') {
      out.push('password');
      if (input.value) out.push('filled');
    } else if (type === 'range') {
      out.push(`value=${input.value}`, `min=${input.min || 0}`, `max=${input.max || 100}`);
    } else if (type === 'file') {
      const files = input.files ? Array.from(input.files).map((f) => f.name) : [];
      if (input.multiple) out.push('multiple');
      if (input.accept) out.push(`accept=${q(input.accept)}`);
      if (files.length) out.push(`files=${q(files.join(', '))}`);
    } else if (type !== 'checkbox' && type !== 'radio' && type !== 'submit' && type !== 'button' && type !== 'reset' && type !== 'image') {
      if (type !== 'text' && type !== 'search' && role !== 'textbox' && role !== 'searchbox' && role !== 'combobox') out.push(`type=${type}`);
      else if (type === 'email' || type === 'tel' || type === 'url') out.push(`type=${type}`);
      if (input.value) out.push(valueWord(input.value));
    }
  } else if (tag === 'select') {
    const sel = el as HTMLSelectElement;
    const chosen = Array.from(sel.selectedOptions).map(optionLabel);
    if (sel.multiple) out.push(`selected=${q(chosen.join(', '))}`);
    else if (chosen.length) out.push(`value=${q(chosen[0])}`);
    out.push(optionsWord(sel));
  } else if ((el as HTMLElement).isContentEditable) {
    const v = clean((el as HTMLElement).innerText);
    if (v) out.push(valueWord(v));
  } else if (role === 'slider' || role === 'spinbutton' || role === 'scrollbar' || role === 'progressbar') {
    const now = aria(el, 'valuetext') ?? aria(el, 'valuenow');
    if (now !== null) out.push(`value=${now}`);
    const min = aria(el, 'valuemin');
    const max = aria(el, 'valuemax');
    if (min !== null) out.push(`min=${min}`);
    if (max !== null) out.push(`max=${max}`);
  } else if (role === 'combobox' || role === 'textbox' || role === 'searchbox') {
    const v = aria(el, 'valuetext') ?? clean(el.textContent);
    if (v) out.push(valueWord(v));
  }
  if (tag === 'video' || tag === 'audio') out.push((el as HTMLMediaElement).paused ? 'paused' : 'playing');
  return out.join(' ');
}
