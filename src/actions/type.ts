import { confirmFocusAtUse } from './atUse';
import { BrowserAgentError } from '../base/errors';
import type { ElementHandle } from '../snapshot/types';
import { ensureActionable } from './actionability';
import { fingerprintOf } from './click';
import { callOnElement, describeHandle } from './element';
import { keptNote, quote, readOnlyError } from './fieldNotes';
import { invalidFormNote } from './formCheck';
import { setByArrows } from './stepper';
import { mouseClick, pressKey, typeText } from './input';
import type { ActionOutcome, Scope } from './scopeTypes';

export interface TypeOptions {
  /** Replace the current content (default) or append to it. */
  clear?: boolean;
  /** Press Enter afterwards. */
  submit?: boolean;
  /** One key event per character, for widgets that react to keydown/keyup. */
  keystrokes?: boolean;
}

interface FieldInfo {
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
const INSPECT = `(el) => {
  const closed = new Map();
  for (let n = el.getRootNode(); n && n.host; n = n.host.getRootNode()) closed.set(n.host, n);
  let a = document.activeElement;
  for (let sr = a && (a.shadowRoot || closed.get(a)); sr && sr.activeElement; sr = a.shadowRoot || closed.get(a)) a = sr.activeElement;
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
}`;

/** Puts the caret where typing should go: everything selected (to replace) or at the end. */
const PLACE_CARET = `(el, selectAll) => {
  el.focus();
  if (el.localName === 'input' || el.localName === 'textarea') {
    if (selectAll) el.select();
    else { try { el.setSelectionRange(el.value.length, el.value.length); } catch {} }
    return;
  }
  const sel = el.ownerDocument.getSelection();
  const range = el.ownerDocument.createRange();
  range.selectNodeContents(el);
  if (!selectAll) range.collapse(false);
  sel.removeAllRanges();
  sel.addRange(range);
}`;

/** Date, time, color and range inputs take a value string, as their pickers would set it. */
const SET_VALUE = `(el, value) => {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  setter.call(el, value);
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return el.value;
}`;

/** The value string each value-only input takes, as its picker would set it. */
const VALUE_FORMATS: Record<string, string> = {
  date: 'YYYY-MM-DD (2026-05-31)',
  time: 'HH:MM, 24-hour (19:30)',
  'datetime-local': 'YYYY-MM-DDTHH:MM (2026-05-31T19:30)',
  month: 'YYYY-MM (2026-05)',
  week: 'YYYY-Www, the ISO week (2026-W22)',
  color: '#rrggbb (#1a2b3c)',
  range: 'a number within its min and max, on its step',
};

/** Longest text typed again key by key when the field dropped it (one key event pair per character). */
const MAX_RETYPE = 500;

const READ_VALUE = `(el) => el.localName === 'input' || el.localName === 'textarea' ? el.value : (el.innerText || '').slice(0, 500)`;


export async function typeInto(s: Scope, h: ElementHandle, text: string, o: TypeOptions = {}): Promise<ActionOutcome> {
  const info = await callOnElement<FieldInfo>(h, INSPECT);
  if (info.kind === 'other') {
    throw new BrowserAgentError('NOT_INTERACTABLE', `[${h.ref}] ${describeHandle(h)} is not a text field${info.inputType ? ` (${info.inputType})` : ''}.`, info.inputType === 'checkbox' || info.inputType === 'radio' ? 'Use browser_click or browser_fill_form for checkboxes and radios.' : info.inputType === 'file' ? 'Use browser_upload_file for file inputs.' : 'Pick a textbox ref from browser_snapshot, or click the field first and type without a ref.');
  }
  if (info.kind === 'stepper') return setByArrows(s, h, text);
  if (info.kind === 'valueOnly') {
    await ensureActionable(s.tab, h, { hitTest: false });
    const value = await callOnElement<string>(h, SET_VALUE, [text]);
    s.pending = { text: `Set ${describeHandle(h)} to "${text}"${o.submit ? ' and pressed Enter' : ''}`, target: fingerprintOf(h) };
    if (o.submit) await pressKey(s.page, 'Enter');
    if (value !== text) throw new BrowserAgentError('INVALID_INPUT', `The ${info.inputType} field [${h.ref}] ${describeHandle(h)} rejected "${text}" (value is now "${value}").`, `Use the format ${VALUE_FORMATS[info.inputType ?? ''] ?? 'the input type expects'}.`);
    return { text: `Set ${describeHandle(h)} to "${value}"${o.submit ? ' and pressed Enter' : ''}`, target: fingerprintOf(h) };
  }
  if (!info.focused) {
    // Click like a person (widgets open on click), unless something covers the field.
    // A field kept off-screen (a visually hidden input behind a widget) still takes focus and text.
    const { point } = await ensureActionable(s.tab, h, { onScreen: false });
    await mouseClick(s.page, point);
    // The click may open an editor of the page's own (a search box that opens a search dialog): type there.
    const moved = await callOnElement<string>(h, FOCUS_MOVED).catch(() => '');
    if (moved) return typeIntoOpened(s, h, moved, text, o);
  }
  if (info.readOnly) {
    const now = info.count === undefined ? undefined : await callOnElement<number>(h, `(el) => el.ownerDocument.getElementsByTagName('*').length`).catch(() => undefined);
    throw readOnlyError(h, info.value ?? '', now !== undefined && now !== info.count);
  }
  const clear = o.clear ?? true;
  const prior = text && !o.keystrokes && text.length <= MAX_RETYPE ? await callOnElement<string>(h, READ_VALUE).catch(() => undefined) : undefined;
  await callOnElement(h, PLACE_CARET, [clear]);
  // The text goes wherever the focus is now: the policy checks that place (a bound secret never reaches another origin's frame).
  await confirmFocusAtUse(s.ctx, s.tab);
  if (text) await typeText(s.page, text, o.keystrokes, info.kind === 'editable');
  else if (clear) await pressKey(s.page, 'Delete');
  // A field that takes keys only on keydown (older input masks) drops inserted text and puts back what it
  // had: type it again key by key, as a person's keyboard would.
  let keyed = false;
  if (prior !== undefined) {
    const now = await callOnElement<string>(h, READ_VALUE).catch(() => undefined);
    if (now === prior && now !== (clear ? text : prior + text)) {
      await callOnElement(h, PLACE_CARET, [clear]);
      await confirmFocusAtUse(s.ctx, s.tab);
      await typeText(s.page, text, true, info.kind === 'editable');
      keyed = true;
    }
  }
  s.pending = { text: `Typed ${quote(text, info.secret)} into ${describeHandle(h)}${o.submit ? ' and pressed Enter' : ''}`, target: fingerprintOf(h) };
  if (o.submit) await pressKey(s.page, 'Enter');
  const after = !info.secret && !o.submit && clear ? await keptNote(h, text) : '';
  const what = text ? `${clear ? 'Typed' : 'Appended'} ${quote(text, info.secret)}${keyed ? ' key by key (the field ignored inserted text)' : ''} into` : 'Cleared';
  return { text: `${what} ${describeHandle(h)}${o.submit ? ' and pressed Enter' : ''}${after}`, target: fingerprintOf(h), afterSettle: o.submit ? () => invalidFormNote(h, true) : undefined };
}

/** After a click on `el`: the text field the page moved the caret to instead (deep), described, or ''. */
const FOCUS_MOVED = `(el) => {
  let a = el.ownerDocument.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  if (!a || a === el || a === el.ownerDocument.body || el.contains(a)) return '';
  const t = (a.type || '').toLowerCase();
  const field = a.localName === 'textarea' || (a.localName === 'input' && !['checkbox', 'radio', 'file', 'button', 'submit', 'reset', 'image', 'range', 'color'].includes(t)) || a.isContentEditable;
  if (!field) return '';
  const name = (a.getAttribute('aria-label') || (a.labels && a.labels[0] && a.labels[0].innerText) || a.placeholder || a.name || '').trim().replace(/\\s+/g, ' ').slice(0, 60);
  return 'textbox' + (name ? ' "' + name + '"' : ' (' + a.localName + ')');
}`;

async function typeIntoOpened(s: Scope, h: ElementHandle, field: string, text: string, o: TypeOptions): Promise<ActionOutcome> {
  const clear = o.clear ?? true;
  if (clear) await pressKey(s.page, 'Control+A');
  await confirmFocusAtUse(s.ctx, s.tab);
  if (text) await typeText(s.page, text, o.keystrokes);
  else if (clear) await pressKey(s.page, 'Delete');
  const what = `${text ? `Typed ${quote(text, false)} into` : 'Cleared'} ${field}, which clicking ${describeHandle(h)} opened${o.submit ? ', and pressed Enter' : ''}`;
  s.pending = { text: what, target: fingerprintOf(h) };
  if (o.submit) await pressKey(s.page, 'Enter');
  return { text: what, target: fingerprintOf(h) };
}

/** Types into whatever has focus (no ref): after a click on a custom editor, for instance. */
export async function typeFocused(s: Scope, text: string, o: TypeOptions = {}): Promise<ActionOutcome> {
  s.tab.assertNoDialog();
  const focused = await s.page.send('Runtime.evaluate', {
    expression: `(() => { let a = document.activeElement; while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement; return a && a !== document.body ? a.localName + (a.id ? '#' + a.id : '') : ''; })()`,
    returnByValue: true,
  });
  const name = String(focused.result.value ?? '');
  const isFrame = name.startsWith('iframe');
  if (!name) throw new BrowserAgentError('TARGET_NOT_FOUND', 'Nothing has focus to type into.', 'Give the ref of the field, or click the field first.');
  if (o.clear && !isFrame) await pressKey(s.page, 'Control+A');
  await confirmFocusAtUse(s.ctx, s.tab);
  if (text) await typeText(s.page, text, o.keystrokes);
  s.pending = { text: `Typed ${quote(text, false)} into the focused element (${name})${o.submit ? ' and pressed Enter' : ''}` };
  if (o.submit) await pressKey(s.page, 'Enter');
  return { text: `Typed ${quote(text, false)} into the focused element (${name})${o.submit ? ' and pressed Enter' : ''}` };
}
