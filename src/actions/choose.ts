import { BrowserAgentError } from '../errors';
import type { ElementHandle } from '../snapshot/types';
import { ensureActionable } from './actionability';
import { clickElement, fingerprintOf } from './click';
import { callOnElement, describeHandle } from './element';
import type { ActionOutcome, Scope } from './scope';
import { typeInto } from './type';

/** Picks options of a native <select> by value, then exact label, then label containing the text. */
const SELECT = `(el, wanted) => {
  if (el.localName !== 'select') return { error: 'notSelect', tag: el.localName };
  if (wanted.length > 1 && !el.multiple) return { error: 'single' };
  const opts = [...el.options];
  const norm = (s) => s.replace(/\\s+/g, ' ').trim().toLowerCase();
  const picked = [];
  for (const w of wanted) {
    const o = opts.find((o) => o.value === w) || opts.find((o) => norm(o.label) === norm(w)) || opts.find((o) => norm(o.label).includes(norm(w)));
    if (!o) return { error: 'missing', value: w, available: opts.slice(0, 30).map((o) => o.label || o.value) };
    if (o.disabled) return { error: 'disabled', value: w };
    picked.push(o);
  }
  for (const o of opts) o.selected = picked.includes(o);
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { labels: picked.map((o) => o.label || o.value) };
}`;

export async function selectOptions(s: Scope, h: ElementHandle, values: string[]): Promise<ActionOutcome> {
  await ensureActionable(s.tab, h, { hitTest: false });
  const r = await callOnElement<{ error?: string; tag?: string; value?: string; available?: string[]; labels?: string[] }>(h, SELECT, [values]);
  const what = `[${h.ref}] ${describeHandle(h)}`;
  if (r.error === 'notSelect') throw new BrowserAgentError('NOT_INTERACTABLE', `${what} is a <${r.tag}>, not a native select.`, 'For a custom dropdown, click it with browser_click, then click the option in the list that opens.');
  if (r.error === 'single') throw new BrowserAgentError('INVALID_INPUT', `${what} allows only one option.`, 'Pass a single value.');
  if (r.error === 'missing') throw new BrowserAgentError('TARGET_NOT_FOUND', `${what} has no option "${r.value}".`, `Available: ${r.available!.map((a) => `"${a}"`).join(', ')}`);
  if (r.error === 'disabled') throw new BrowserAgentError('NOT_INTERACTABLE', `The option "${r.value}" of ${what} is disabled.`, 'Choose another option.');
  return { text: `Selected ${r.labels!.map((l) => `"${l}"`).join(', ')} in ${describeHandle(h)}`, target: fingerprintOf(h) };
}

const CHECK_STATE = `(el) => {
  if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) return { checked: el.checked, kind: el.type };
  const a = el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed') ?? el.getAttribute('aria-selected');
  if (a !== null) return { checked: a === 'true', kind: el.getAttribute('role') || 'toggle' };
  return { kind: 'none' };
}`;

/** Checks or unchecks a checkbox/radio/switch by clicking it only when its state differs. */
export async function setChecked(s: Scope, h: ElementHandle, checked: boolean): Promise<ActionOutcome> {
  const before = await callOnElement<{ checked?: boolean; kind: string }>(h, CHECK_STATE);
  if (before.kind === 'none') throw new BrowserAgentError('NOT_INTERACTABLE', `[${h.ref}] ${describeHandle(h)} is not a checkbox, radio or switch.`, 'Use browser_type for text fields and browser_select_option for selects.');
  if (before.checked === checked) return { text: `${describeHandle(h)} was already ${checked ? 'checked' : 'unchecked'}`, target: fingerprintOf(h) };
  if (!checked && before.kind === 'radio') throw new BrowserAgentError('INVALID_INPUT', `A radio button cannot be unchecked directly.`, 'Check another radio button of the same group instead.');
  await clickElement(s, h);
  const after = await callOnElement<{ checked?: boolean }>(h, CHECK_STATE);
  if (after.checked !== checked) throw new BrowserAgentError('NOT_INTERACTABLE', `Clicked ${describeHandle(h)} but it is still ${after.checked ? 'checked' : 'unchecked'}.`, 'The page may prevent the change; look at the snapshot for a reason (a disabled state, a required step).');
  return { text: `${checked ? 'Checked' : 'Unchecked'} ${describeHandle(h)}`, target: fingerprintOf(h) };
}

/** Sets a native select, checkbox/radio or text field to `value`, choosing the right gesture. */
export async function fillField(s: Scope, h: ElementHandle, value: string | boolean | string[]): Promise<ActionOutcome> {
  const kind = await callOnElement<string>(h, `(el) => el.localName === 'select' ? 'select' : (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) || ['checkbox', 'radio', 'switch', 'menuitemcheckbox'].includes(el.getAttribute('role')) ? 'check' : 'text'`);
  if (kind === 'select') return selectOptions(s, h, Array.isArray(value) ? value : [String(value)]);
  if (kind === 'check') {
    const on = typeof value === 'boolean' ? value : !/^(false|off|no|0|unchecked)$/i.test(String(value));
    return setChecked(s, h, on);
  }
  return typeInto(s, h, Array.isArray(value) ? value.join(', ') : String(value), { clear: true });
}
