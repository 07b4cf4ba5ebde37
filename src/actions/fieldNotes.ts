// What a text field did with typed text, in the words a model needs: the value it shows when that differs from
// the text (a mask reformatted it, the app refused a character), and why when the field itself says (maxlength).
import { ignore } from '../base/ignore';
import { BrowserAgentError } from '../base/errors';
import { clip, fenceInline } from '../base/untrusted';
import type { ElementHandle } from '../snapshot/types';
import { callOnElement, describeHandle } from './element';
import { pageFns } from '../page/fn';
import fieldsFns from '../page/actions/fields.ts?pagefn';

const fieldsPage = pageFns<typeof import('../page/actions/fields')>(fieldsFns);

/** Typed text as results show it: quoted, long text cut, secrets only counted. */
export function quote(text: string, secret = false): string {
  if (secret) return `${text.length} characters (hidden)`;
  return text.length > 60 ? `"${text.slice(0, 57)}…" (${text.length} characters)` : `"${text}"`;
}

/** "; the field now shows …" after typing `text` (replacing), with the maxlength that cut it; '' when it shows the text. */
export async function keptNote(h: ElementHandle, text: string): Promise<string> {
  const r = await callOnElement<{ value: string; max: number; number: boolean; bad: boolean }>(h, fieldsPage.fieldReading).catch((e) => ignore(e, 'no note when the field cannot be read'));
  if (!r || r.value === text) return '';
  const cut = r.max > 0 && text.length > r.max && r.value.length <= r.max;
  const why = cut ? ` — it takes at most ${r.max} characters (maxlength), ${text.length - r.value.length} were not taken` : r.number && (r.bad || !r.value) ? ' — it is a number field: it takes digits (and a sign or decimal point) only' : '';
  return `; the field now shows ${quote(r.value)}${why}`;
}

/** A read-only field (readonly, aria-readonly) that clicking did not turn into another editor: nothing to type into. */
export function readOnlyError(h: ElementHandle, value: string, clickChangedPage = false): BrowserAgentError {
  return new BrowserAgentError(
    'NOT_INTERACTABLE',
    `[${h.ref}] ${describeHandle(h)} is read-only: it cannot be typed into${value ? `. Its value: ${fenceInline(clip(value, 500))}` : ''}.${clickChangedPage ? ' Clicking it changed the page: it likely opened a picker of its own.' : ''}`,
    clickChangedPage
      ? 'Take a browser_snapshot and choose the value in what opened (a calendar, a list).'
      : 'To use the value, read it from here or the snapshot; to change it, look for the control the page offers for that (an edit button, a picker next to it).',
  );
}
