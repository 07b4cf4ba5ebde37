// A form the browser refused to send: its own validation (required, type=email, pattern) shows a bubble that is
// not page text, so neither the snapshot nor its delta would tell the model why nothing happened.
import { clip, fenceInline } from '../base/untrusted';
import type { ElementHandle } from '../snapshot/types';
import { callOnElement } from './element';

/** Fields named in one note; more are counted. */
const MAX_FIELDS = 3;

/**
 * After a submit button was clicked (or, with `enter`, Enter pressed in a field): the form's invalid fields and the browser's
 * messages, when the browser checks this form and something in it is invalid. Reads `:invalid` (no events fired).
 */
const INVALID = `(el, enter) => {
  const form = el.form || (el.closest && el.closest('form'));
  if (!form || !form.isConnected || form.noValidate || el.formNoValidate) return null;
  const submits = enter || (el.localName === 'button' ? el.type === 'submit' : el.localName === 'input' && ['submit', 'image'].includes(el.type));
  if (!submits) return null;
  const bad = Array.from(form.elements).filter((f) => f.willValidate && !f.validity.valid);
  return bad.map((f) => {
    const label = ((f.labels && f.labels[0] && f.labels[0].innerText) || f.getAttribute('aria-label') || f.placeholder || f.name || f.localName).trim().replace(/\\s+/g, ' ');
    // The bubble shows a pattern's title under the message; validationMessage leaves it out.
    return { label, message: f.validationMessage + (f.validity.patternMismatch && f.title ? ' ' + f.title : '') };
  });
}`;

export async function invalidFormNote(h: ElementHandle, enter: boolean): Promise<string | undefined> {
  const bad = await callOnElement<Array<{ label: string; message: string }> | null>(h, INVALID, [enter]).catch(() => null);
  if (!bad || !bad.length) return undefined;
  const named = bad.slice(0, MAX_FIELDS).map((b) => `${JSON.stringify(clip(b.label, 60))}: ${clip(b.message, 200)}`);
  const more = bad.length > MAX_FIELDS ? ` (and ${bad.length - MAX_FIELDS} more)` : '';
  return `The form was not sent: the browser rejected ${bad.length === 1 ? 'a field' : `${bad.length} fields`}${more}: ${fenceInline(named.join('; '))}`;
}
