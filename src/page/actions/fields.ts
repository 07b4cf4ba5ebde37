/** What form fields say of themselves (actions/formCheck.ts, actions/fieldNotes.ts, actions/stepper.ts, actions/blockers.ts). */
import { loose, type Loose } from '../dom';

/**
 * After a submit button was clicked (or, with `enter`, Enter pressed in a field): the form's invalid fields and
 * the browser's messages, when the browser checks this form and something in it is invalid. Reads `:invalid`
 * (no events fired).
 */
export function invalidFields(node: Element, enter: boolean): { label: string; message: string }[] | null {
  const el = node as Loose & { formNoValidate?: boolean };
  const form = el.form || (el.closest && el.closest('form'));
  if (!form || !form.isConnected || form.noValidate || el.formNoValidate) return null;
  const submits = enter || (el.localName === 'button' ? el.type === 'submit' : el.localName === 'input' && ['submit', 'image'].includes(el.type!));
  if (!submits) return null;
  const bad = (Array.from(form.elements) as Loose[]).filter((f) => f.willValidate && !f.validity!.valid);
  return bad.map((f) => {
    const label = ((f.labels && f.labels[0] && f.labels[0].innerText) || f.getAttribute('aria-label') || f.placeholder || f.name || f.localName).trim().replace(/\s+/g, ' ');
    // The bubble shows a pattern's title under the message; validationMessage leaves it out.
    return { label, message: f.validationMessage + (f.validity!.patternMismatch && f.title ? ' ' + f.title : '') };
  });
}

/** What a text field shows after typing, its maxlength, and whether it is a number field holding bad input. */
export function fieldReading(node: Element): { value: string; max: number; number: boolean; bad: boolean } {
  const el = node as Loose & { maxLength?: number };
  return { value: el.localName === 'input' || el.localName === 'textarea' ? el.value! : (el.innerText || '').slice(0, 500), max: el.maxLength! > 0 ? el.maxLength! : -1, number: el.localName === 'input' && el.type === 'number', bad: !!(el.validity && el.validity.badInput) };
}

export interface StepperReading {
  now: number | null;
  min: number | null;
  max: number | null;
  text: string | null;
}

/** A custom spinbutton's or slider's ARIA value and range; focused first with `focus`. */
export function stepperReading(el: HTMLElement, focus: boolean): StepperReading {
  if (focus) el.focus();
  const n = (a: string) => { const v = el.getAttribute(a); return v === null || v === '' ? null : Number(v); };
  return { now: n('aria-valuenow'), min: n('aria-valuemin'), max: n('aria-valuemax'), text: el.getAttribute('aria-valuetext') };
}

/**
 * Why the page disabled the element: its description (aria-describedby, aria-errormessage, title), else the
 * fields of its form that are not valid yet (required and empty, a wrong format), named by their labels.
 */
export function disabledReason(node: Element): { said?: string; fields?: string[]; more?: number } | null {
  const el = loose(node)!;
  const doc = el.ownerDocument;
  const text = (n: Element | null) => (n && ((n as HTMLElement).innerText || n.textContent) || '').trim().replace(/\s+/g, ' ');
  const byIds = (attr: string) => (el.getAttribute(attr) || '').split(/\s+/).filter(Boolean).map((id) => text(doc.getElementById(id))).filter(Boolean).join(' ');
  const said = byIds('aria-describedby') || byIds('aria-errormessage') || (el.getAttribute('title') || '').trim();
  if (said) return { said };
  const form = loose(el.form || el.closest('form') || el.closest('[role=form],[role=dialog],dialog,fieldset'));
  if (!form) return null;
  const fields = (form.elements ? [...form.elements] : [...form.querySelectorAll('input,select,textarea')]) as Loose[];
  const name = (f: Loose) => ((f.labels && f.labels[0] && text(f.labels[0])) || f.getAttribute('aria-label') || f.placeholder || f.name || f.localName).trim();
  const bad = fields.filter((f) => f !== el && (f.willValidate && !f.validity!.valid || f.getAttribute('aria-invalid') === 'true'));
  return bad.length ? { fields: bad.slice(0, 3).map((f) => name(f) + (f.validity && f.validity.valueMissing ? ' (required, empty)' : f.validationMessage ? ' (' + f.validationMessage + ')' : ' (invalid)')), more: Math.max(0, bad.length - 3) } : null;
}
