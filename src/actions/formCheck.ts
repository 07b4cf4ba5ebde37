// A form the browser refused to send: its own validation (required, type=email, pattern) shows a bubble that is
// not page text, so neither the snapshot nor its delta would tell the model why nothing happened.
import { clip, fenceInline } from '../base/untrusted';
import type { ElementHandle } from '../snapshot/types';
import { callOnElement } from './element';
import { pageFns } from '../page/fn';
import fieldsFns from '../page/actions/fields.ts?pagefn';
import { ignore } from '../base/ignore';

const fieldsPage = pageFns<typeof import('../page/actions/fields')>(fieldsFns);

/** Fields named in one note; more are counted. */
const MAX_FIELDS = 3;

/**
 * After a submit button was clicked (or, with `enter`, Enter pressed in a field): a note naming the form's invalid
 * fields and the browser's messages, when the browser refused to send it.
 */
export async function invalidFormNote(h: ElementHandle, enter: boolean): Promise<string | undefined> {
  const bad = await callOnElement<Array<{ label: string; message: string }> | null>(h, fieldsPage.invalidFields, [enter]).catch((e) => ignore(e, 'the element may be gone: no note', null));
  if (!bad || !bad.length) return undefined;
  const named = bad.slice(0, MAX_FIELDS).map((b) => `${JSON.stringify(clip(b.label, 60))}: ${clip(b.message, 200)}`);
  const more = bad.length > MAX_FIELDS ? ` (and ${bad.length - MAX_FIELDS} more)` : '';
  return `The form was not sent: the browser rejected ${bad.length === 1 ? 'a field' : `${bad.length} fields`}${more}: ${fenceInline(named.join('; '))}`;
}
