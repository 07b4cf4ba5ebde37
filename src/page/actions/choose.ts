/** Selects, checkboxes and the page's own dropdowns, as a person would use them (actions/choose.ts). */
import { loose, type Loose } from '../dom';

export interface SelectResult { error?: string; tag?: string; value?: string; available?: string[]; labels?: string[] }

/** Picks options of a native <select> by value, then exact label, then label containing the text. */
export function selectNative(node: Element, wanted: string[]): SelectResult {
  if (node.localName !== 'select') return { error: 'notSelect', tag: node.localName };
  const el = node as HTMLSelectElement;
  if (wanted.length > 1 && !el.multiple) return { error: 'single' };
  const opts = [...el.options];
  // Separators a model may put between an <optgroup> and its option: "Australia › Springfield", "Australia / Springfield".
  const norm = (s: string) => s.replace(/\s*(›|»|>|\/|:)\s*/g, ' › ').replace(/\s+/g, ' ').trim().toLowerCase();
  const group = (o: HTMLOptionElement) => o.parentElement && o.parentElement.localName === 'optgroup' ? (o.parentElement as HTMLOptGroupElement).label.replace(/\s+/g, ' ').trim() : '';
  const full = (o: HTMLOptionElement) => (group(o) ? group(o) + ' › ' : '') + (o.label || o.value).replace(/\s+/g, ' ').trim();
  const picked: HTMLOptionElement[] = [];
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
}

/**
 * A dropdown of the page's own: 'pick' for an ARIA combobox or listbox that is not a text field (click it open,
 * click the option), 'search' for a text field that is a combobox (type to filter, click the option: react-select,
 * autocompletes), '' for anything else.
 */
export function customDropdown(el: Element): '' | 'pick' | 'search' {
  const role = el.getAttribute('role');
  const popup = ['combobox', 'listbox'].includes(role!) || el.getAttribute('aria-haspopup') === 'listbox';
  if (el.localName === 'input') return role === 'combobox' || (el.getAttribute('aria-autocomplete') || 'none') !== 'none' ? 'search' : '';
  return popup && !['textarea', 'select'].includes(el.localName) && !(el as HTMLElement).isContentEditable ? 'pick' : '';
}

const norm = (t: string | null) => (t || '').replace(/\s+/g, ' ').trim().toLowerCase();
const optionLabel = (o: Element) => norm(o.getAttribute('aria-label') || o.textContent);

/** The visible options of the list the element controls (aria-controls/owns, itself for a listbox), else of the document. */
function optionPool(el: Element): Element[] {
  const doc = el.ownerDocument;
  const shown = (e: Element) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && e.checkVisibility(); };
  const ids = ((el.getAttribute('aria-controls') || '') + ' ' + (el.getAttribute('aria-owns') || '')).split(/\s+/).filter(Boolean);
  const lists: ParentNode[] = el.getAttribute('role') === 'listbox' ? [el] : ids.map((id) => doc.getElementById(id)).filter((l): l is HTMLElement => !!l);
  return (lists.length ? lists : [doc]).flatMap((l) => Array.from(l.querySelectorAll('[role=option]'))).filter(shown);
}

/** `this`: a custom dropdown; its shown option labelled `wanted` (exactly, else containing it), or null. */
export function findOption(this: Element, wanted: string): Element | null {
  const pool = optionPool(this);
  const w = norm(wanted);
  return pool.find((o) => optionLabel(o) === w) || pool.find((o) => optionLabel(o).includes(w)) || null;
}

/** The labels of the first 30 options the dropdown shows. */
export function optionLabels(el: Element): string[] {
  return optionPool(el).slice(0, 30).map((o) => (o.getAttribute('aria-label') || o.textContent || '').trim());
}

/** The element, or the list it controls, takes several options (aria-multiselectable). */
export function multiselect(el: Element): boolean {
  if (el.getAttribute('aria-multiselectable') === 'true') return true;
  const ids = ((el.getAttribute('aria-controls') || '') + ' ' + (el.getAttribute('aria-owns') || '')).split(/\s+/).filter(Boolean);
  return ids.some((id) => { const l = el.ownerDocument.getElementById(id); return !!l && l.getAttribute('aria-multiselectable') === 'true'; });
}

export function isSelected(o: Element): boolean {
  return o.getAttribute('aria-selected') === 'true' || o.getAttribute('aria-checked') === 'true';
}

/** A checkbox's, radio's or toggle's state (a label stands for its control); kind 'none' for anything else. */
export function checkState(node: Element): { checked?: boolean; kind: string } {
  let el: Loose = loose(node)!;
  if (el.localName === 'label' && el.control) el = loose(el.control)!;
  if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) return { checked: el.checked, kind: el.type };
  const a = el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed') ?? el.getAttribute('aria-selected');
  if (a !== null) return { checked: a === 'true', kind: el.getAttribute('role') || 'toggle' };
  return { kind: 'none' };
}

/** Which gesture fills the field: 'select' (native or a custom dropdown), 'check', or 'text'. A label stands for its control. */
export function fieldKind(node: Element): 'select' | 'check' | 'text' {
  let el: Loose = loose(node)!;
  if (el.localName === 'label' && el.control) el = loose(el.control)!;
  return el.localName === 'select' || customDropdown(el) === 'pick' ? 'select' : (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) || ['checkbox', 'radio', 'switch', 'menuitemcheckbox'].includes(el.getAttribute('role')!) ? 'check' : 'text';
}
