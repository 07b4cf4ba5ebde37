import { BrowserAgentError } from '../base/errors';
import type { ElementHandle } from '../snapshot/types';
import { ensureActionable } from './actionability';
import { clickElement, fingerprintOf } from './click';
import { sleep } from '../session/launcher';
import { callOnElement, describeHandle, elementFrom } from './element';
import type { ActionOutcome, Scope } from './scopeTypes';
import { typeInto } from './type';

/** Picks options of a native <select> by value, then exact label, then label containing the text. */
const SELECT = `(el, wanted) => {
  if (el.localName !== 'select') return { error: 'notSelect', tag: el.localName };
  if (wanted.length > 1 && !el.multiple) return { error: 'single' };
  const opts = [...el.options];
  // Separators a model may put between an <optgroup> and its option: "Australia › Springfield", "Australia / Springfield".
  const norm = (s) => s.replace(/\\s*(›|»|>|\\/|:)\\s*/g, ' › ').replace(/\\s+/g, ' ').trim().toLowerCase();
  const group = (o) => o.parentElement && o.parentElement.localName === 'optgroup' ? o.parentElement.label.replace(/\\s+/g, ' ').trim() : '';
  const full = (o) => (group(o) ? group(o) + ' › ' : '') + (o.label || o.value).replace(/\\s+/g, ' ').trim();
  const picked = [];
  for (const w of wanted) {
    const same = opts.filter((o) => norm(o.label) === norm(w));
    if (same.length > 1 && !opts.some((o) => o.value === w) && new Set(same.map(group)).size > 1) return { error: 'ambiguous', value: w, available: same.map(full) };
    const o = opts.find((o) => o.value === w) || opts.find((o) => norm(full(o)) === norm(w)) || same[0] || opts.find((o) => norm(full(o)).includes(norm(w)));
    if (!o) return { error: 'missing', value: w, available: opts.slice(0, 30).map(full) };
    if (o.disabled) return { error: 'disabled', value: w };
    picked.push(o);
  }
  for (const o of opts) o.selected = picked.includes(o);
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { labels: picked.map(full) };
}`;

/**
 * A dropdown of the page's own: 'pick' for an ARIA combobox or listbox that is not a text field (click it open,
 * click the option), 'search' for a text field that is a combobox (type to filter, click the option: react-select,
 * autocompletes), '' for anything else.
 */
const CUSTOM = `(el) => {
  const role = el.getAttribute('role');
  const popup = ['combobox', 'listbox'].includes(role) || el.getAttribute('aria-haspopup') === 'listbox';
  if (el.localName === 'input') return role === 'combobox' || (el.getAttribute('aria-autocomplete') || 'none') !== 'none' ? 'search' : '';
  return popup && !['textarea', 'select'].includes(el.localName) && !el.isContentEditable ? 'pick' : '';
}`;

/** The visible options of the list the element controls (aria-controls/owns, itself for a listbox), else of the document. */
const OPTIONS = `const doc = el.ownerDocument;
  const norm = (t) => (t || '').replace(/\\s+/g, ' ').trim().toLowerCase();
  const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && e.checkVisibility(); };
  const ids = ((el.getAttribute('aria-controls') || '') + ' ' + (el.getAttribute('aria-owns') || '')).split(/\\s+/).filter(Boolean);
  const lists = el.getAttribute('role') === 'listbox' ? [el] : ids.map((id) => doc.getElementById(id)).filter(Boolean);
  const pool = (lists.length ? lists : [doc]).flatMap((l) => Array.from(l.querySelectorAll('[role=option]'))).filter(shown);
  const label = (o) => norm(o.getAttribute('aria-label') || o.textContent);`;
const FIND_OPTION = `function (wanted) { const el = this; ${OPTIONS}
  const w = norm(wanted);
  return pool.find((o) => label(o) === w) || pool.find((o) => label(o).includes(w)) || null;
}`;
const OPTION_LABELS = `(el) => { ${OPTIONS} return pool.slice(0, 30).map((o) => (o.getAttribute('aria-label') || o.textContent || '').trim()); }`;

/** The element, or the list it controls, takes several options (aria-multiselectable). */
const MULTISELECT = `(el) => {
  if (el.getAttribute('aria-multiselectable') === 'true') return true;
  const ids = ((el.getAttribute('aria-controls') || '') + ' ' + (el.getAttribute('aria-owns') || '')).split(/\\s+/).filter(Boolean);
  return ids.some((id) => { const l = el.ownerDocument.getElementById(id); return !!l && l.getAttribute('aria-multiselectable') === 'true'; });
}`;
const IS_SELECTED = `(o) => o.getAttribute('aria-selected') === 'true' || o.getAttribute('aria-checked') === 'true'`;

/**
 * Opens a custom dropdown (when its option is not showing; a searchable one by typing the label) and clicks
 * the option with each label, like a person.
 */
async function chooseCustom(s: Scope, h: ElementHandle, values: string[], how: string): Promise<ActionOutcome> {
  const what = `[${h.ref}] ${describeHandle(h)}`;
  // A list that takes several: most select one row per click and add one with Control+click (file managers,
  // mail lists); lists whose click toggles take Control+click the same way. An option already selected is left.
  const multi = values.length > 1 && (await callOnElement<boolean>(h, MULTISELECT).catch(() => false));
  const options: ElementHandle[] = [];
  for (const v of values) {
    let option = how === 'search' ? undefined : await elementFrom(h, FIND_OPTION, [v], v);
    if (!option) {
      if (how === 'search') await typeInto(s, h, v);
      else await clickElement(s, h);
      // Lists rendered a moment after the click (a portal, a fetch) get a short while to show.
      for (let i = 0; i < 30 && !option; i++) {
        await sleep(50);
        option = await elementFrom(h, FIND_OPTION, [v], v);
      }
    }
    if (!option) {
      const available = await callOnElement<string[]>(h, OPTION_LABELS).catch(() => []);
      throw new BrowserAgentError('TARGET_NOT_FOUND', `${what} shows no option "${v}" (it is open now).`, available.length ? `Available: ${available.map((a) => `"${a}"`).join(', ')}` : 'Take a snapshot to see what the click opened, and click the option.');
    }
    options.push(option);
    if (multi && (await callOnElement<boolean>(option, IS_SELECTED).catch(() => false))) continue;
    await clickElement(s, { ...option, role: 'option' }, multi && options.length > 1 ? { modifiers: ['Control'] } : {});
  }
  if (multi) {
    const missed: string[] = [];
    for (const [i, o] of options.entries()) if (!(await callOnElement<boolean>(o, IS_SELECTED).catch(() => true))) missed.push(values[i]);
    if (missed.length) throw new BrowserAgentError('NOT_INTERACTABLE', `Clicked the options of ${what}, but ${missed.map((m) => `"${m}"`).join(', ')} ${missed.length === 1 ? 'is' : 'are'} not selected now.`, 'The list may take several with Shift+click or a checkbox per row: take a snapshot and click them as the page shows.');
  }
  return { text: `Chose ${values.map((v) => `"${v}"`).join(', ')} in ${describeHandle(h)} (${how === 'search' ? 'typed it and' : 'opened it and'} clicked the option)`, target: fingerprintOf(h) };
}

export async function selectOptions(s: Scope, h: ElementHandle, values: string[]): Promise<ActionOutcome> {
  await ensureActionable(s.tab, h, { hitTest: false });
  const custom = await callOnElement<string>(h, CUSTOM);
  if (custom) return chooseCustom(s, h, values, custom);
  const r = await callOnElement<{ error?: string; tag?: string; value?: string; available?: string[]; labels?: string[] }>(h, SELECT, [values]);
  const what = `[${h.ref}] ${describeHandle(h)}`;
  if (r.error === 'notSelect') throw new BrowserAgentError('NOT_INTERACTABLE', `${what} is a <${r.tag}>, not a native select.`, 'For a custom dropdown, click it with browser_click, then click the option in the list that opens.');
  if (r.error === 'single') throw new BrowserAgentError('INVALID_INPUT', `${what} allows only one option.`, 'Pass a single value.');
  if (r.error === 'missing') throw new BrowserAgentError('TARGET_NOT_FOUND', `${what} has no option "${r.value}".`, `Available: ${r.available!.map((a) => `"${a}"`).join(', ')}`);
  if (r.error === 'ambiguous') throw new BrowserAgentError('INVALID_INPUT', `${what} has ${r.available!.length} options labelled "${r.value}", in different groups: ${r.available!.map((a) => `"${a}"`).join(', ')}.`, 'Name the group too, as listed (e.g. "' + r.available![0] + '"), or pass the option\'s value.');
  if (r.error === 'disabled') throw new BrowserAgentError('NOT_INTERACTABLE', `The option "${r.value}" of ${what} is disabled.`, 'Choose another option.');
  return { text: `Selected ${r.labels!.map((l) => `"${l}"`).join(', ')} in ${describeHandle(h)}`, target: fingerprintOf(h) };
}

const CHECK_STATE = `(el) => {
  if (el.localName === 'label' && el.control) el = el.control;
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
  // A checkbox drawn as a switch is often a visually hidden input whose label got the ref: the input decides.
  const kind = await callOnElement<string>(h, `(el) => (el = el.localName === 'label' && el.control ? el.control : el, el.localName === 'select' || (${CUSTOM})(el) === 'pick' ? 'select' : (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) || ['checkbox', 'radio', 'switch', 'menuitemcheckbox'].includes(el.getAttribute('role')) ? 'check' : 'text')`);
  if (kind === 'select') return selectOptions(s, h, Array.isArray(value) ? value : [String(value)]);
  if (kind === 'check') {
    const on = typeof value === 'boolean' ? value : !/^(false|off|no|0|unchecked)$/i.test(String(value));
    return setChecked(s, h, on);
  }
  return typeInto(s, h, Array.isArray(value) ? value.join(', ') : String(value), { clear: true });
}
