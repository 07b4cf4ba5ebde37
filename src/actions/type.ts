import { ignore } from '../base/ignore';
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
import type { FieldInfo } from '../page/actions/typing';
import { pageCall, pageFns } from '../page/fn';
import typingFns from '../page/actions/typing.ts?pagefn';
import focusFns from '../page/actions/focus.ts?pagefn';

const typingPage = pageFns<typeof import('../page/actions/typing')>(typingFns);
const focusPage = pageFns<typeof import('../page/actions/focus')>(focusFns);

export interface TypeOptions {
  /** Replace the current content (default) or append to it. */
  clear?: boolean;
  /** Press Enter afterwards. */
  submit?: boolean;
  /** One key event per character, for widgets that react to keydown/keyup. */
  keystrokes?: boolean;
}

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

export async function typeInto(s: Scope, h: ElementHandle, text: string, o: TypeOptions = {}): Promise<ActionOutcome> {
  const info = await callOnElement<FieldInfo>(h, typingPage.inspectField);
  if (info.kind === 'other') {
    throw new BrowserAgentError('NOT_INTERACTABLE', `[${h.ref}] ${describeHandle(h)} is not a text field${info.inputType ? ` (${info.inputType})` : ''}.`, info.inputType === 'checkbox' || info.inputType === 'radio' ? 'Use browser_click or browser_fill_form for checkboxes and radios.' : info.inputType === 'file' ? 'Use browser_upload_file for file inputs.' : 'Pick a textbox ref from browser_snapshot, or click the field first and type without a ref.');
  }
  if (info.kind === 'stepper') return setByArrows(s, h, text);
  if (info.kind === 'valueOnly') {
    await ensureActionable(s.tab, h, { hitTest: false });
    const value = await callOnElement<string>(h, typingPage.setValue, [text]);
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
    const moved = await callOnElement<string>(h, typingPage.focusMoved).catch((e) => ignore(e, 'unread counts as focus not moved: typed into the element', ''));
    if (moved) return typeIntoOpened(s, h, moved, text, o);
  }
  if (info.readOnly) {
    const now = info.count === undefined ? undefined : await callOnElement<number>(h, typingPage.elementCount).catch((e) => ignore(e, 'unknown: the error does not say the click changed the page'));
    throw readOnlyError(h, info.value ?? '', now !== undefined && now !== info.count);
  }
  const clear = o.clear ?? true;
  const prior = text && !o.keystrokes && text.length <= MAX_RETYPE ? await callOnElement<string>(h, typingPage.readValue).catch((e) => ignore(e, 'no value read: typed text is not checked again')) : undefined;
  await callOnElement(h, typingPage.placeCaret, [clear]);
  // The text goes wherever the focus is now: the policy checks that place (a bound secret never reaches another origin's frame).
  await confirmFocusAtUse(s.ctx, s.tab);
  if (text) await typeText(s.page, text, o.keystrokes, info.kind === 'editable');
  else if (clear) await pressKey(s.page, 'Delete');
  // A field that takes keys only on keydown (older input masks) drops inserted text and puts back what it
  // had: type it again key by key, as a person's keyboard would.
  let keyed = false;
  if (prior !== undefined) {
    const now = await callOnElement<string>(h, typingPage.readValue).catch((e) => ignore(e, 'no value read: typed text is not checked again'));
    if (now === prior && now !== (clear ? text : prior + text)) {
      await callOnElement(h, typingPage.placeCaret, [clear]);
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
    expression: pageCall(focusPage.focusedName),
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
