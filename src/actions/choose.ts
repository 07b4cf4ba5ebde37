import { BrowserAgentError } from '../base/errors';
import type { ElementHandle } from '../snapshot/types';
import { ensureActionable } from './actionability';
import { clickElement, fingerprintOf } from './click';
import { sleep } from '../session/launcher';
import { callOnElement, describeHandle, elementFrom } from './element';
import type { ActionOutcome, Scope } from './scopeTypes';
import { typeInto } from './type';
import type { SelectResult } from '../page/actions/choose';
import { pageFns } from '../page/fn';
import chooseFns from '../page/actions/choose.ts?pagefn';
import { ignore } from '../base/ignore';

const choosePage = pageFns<typeof import('../page/actions/choose')>(chooseFns);

/**
 * Opens a custom dropdown (when its option is not showing; a searchable one by typing the label) and clicks
 * the option with each label, like a person.
 */
async function chooseCustom(s: Scope, h: ElementHandle, values: string[], how: string): Promise<ActionOutcome> {
  const what = `[${h.ref}] ${describeHandle(h)}`;
  // A list that takes several: most select one row per click and add one with Control+click (file managers,
  // mail lists); lists whose click toggles take Control+click the same way. An option already selected is left.
  const multi = values.length > 1 && (await callOnElement<boolean>(h, choosePage.multiselect).catch((e) => ignore(e, 'unread counts as a single-select list', false)));
  const options: ElementHandle[] = [];
  for (const v of values) {
    let option = how === 'search' ? undefined : await elementFrom(h, choosePage.findOption, [v], v);
    if (!option) {
      if (how === 'search') await typeInto(s, h, v);
      else await clickElement(s, h);
      // Lists rendered a moment after the click (a portal, a fetch) get a short while to show.
      for (let i = 0; i < 30 && !option; i++) {
        await sleep(50);
        option = await elementFrom(h, choosePage.findOption, [v], v);
      }
    }
    if (!option) {
      const available = await callOnElement<string[]>(h, choosePage.optionLabels).catch((e) => ignore(e, 'the error stands without the list of options', []));
      throw new BrowserAgentError('TARGET_NOT_FOUND', `${what} shows no option "${v}" (it is open now).`, available.length ? `Available: ${available.map((a) => `"${a}"`).join(', ')}` : 'Take a snapshot to see what the click opened, and click the option.');
    }
    options.push(option);
    if (multi && (await callOnElement<boolean>(option, choosePage.isSelected).catch((e) => ignore(e, 'unread counts as not selected: it is clicked', false)))) continue;
    await clickElement(s, { ...option, role: 'option' }, multi && options.length > 1 ? { modifiers: ['Control'] } : {});
  }
  if (multi) {
    const missed: string[] = [];
    for (const [i, o] of options.entries()) if (!(await callOnElement<boolean>(o, choosePage.isSelected).catch((e) => ignore(e, 'unread is not reported as missed', true)))) missed.push(values[i]);
    if (missed.length) throw new BrowserAgentError('NOT_INTERACTABLE', `Clicked the options of ${what}, but ${missed.map((m) => `"${m}"`).join(', ')} ${missed.length === 1 ? 'is' : 'are'} not selected now.`, 'The list may take several with Shift+click or a checkbox per row: take a snapshot and click them as the page shows.');
  }
  return { text: `Chose ${values.map((v) => `"${v}"`).join(', ')} in ${describeHandle(h)} (${how === 'search' ? 'typed it and' : 'opened it and'} clicked the option)`, target: fingerprintOf(h) };
}

export async function selectOptions(s: Scope, h: ElementHandle, values: string[]): Promise<ActionOutcome> {
  await ensureActionable(s.tab, h, { hitTest: false });
  const custom = await callOnElement<string>(h, choosePage.customDropdown);
  if (custom) return chooseCustom(s, h, values, custom);
  const r = await callOnElement<SelectResult>(h, choosePage.selectNative, [values]);
  const what = `[${h.ref}] ${describeHandle(h)}`;
  if (r.error === 'notSelect') throw new BrowserAgentError('NOT_INTERACTABLE', `${what} is a <${r.tag}>, not a native select.`, 'For a custom dropdown, click it with browser_click, then click the option in the list that opens.');
  if (r.error === 'single') throw new BrowserAgentError('INVALID_INPUT', `${what} allows only one option.`, 'Pass a single value.');
  if (r.error === 'missing') throw new BrowserAgentError('TARGET_NOT_FOUND', `${what} has no option "${r.value}".`, `Available: ${r.available!.map((a) => `"${a}"`).join(', ')}`);
  if (r.error === 'ambiguous') throw new BrowserAgentError('INVALID_INPUT', `${what} has ${r.available!.length} options labelled "${r.value}", in different groups: ${r.available!.map((a) => `"${a}"`).join(', ')}.`, 'Name the group too, as listed (e.g. "' + r.available![0] + '"), or pass the option\'s value.');
  if (r.error === 'disabled') throw new BrowserAgentError('NOT_INTERACTABLE', `The option "${r.value}" of ${what} is disabled.`, 'Choose another option.');
  return { text: `Selected ${r.labels!.map((l) => `"${l}"`).join(', ')} in ${describeHandle(h)}`, target: fingerprintOf(h) };
}

/** Checks or unchecks a checkbox/radio/switch by clicking it only when its state differs. */
export async function setChecked(s: Scope, h: ElementHandle, checked: boolean): Promise<ActionOutcome> {
  const before = await callOnElement<{ checked?: boolean; kind: string }>(h, choosePage.checkState);
  if (before.kind === 'none') throw new BrowserAgentError('NOT_INTERACTABLE', `[${h.ref}] ${describeHandle(h)} is not a checkbox, radio or switch.`, 'Use browser_type for text fields and browser_select_option for selects.');
  if (before.checked === checked) return { text: `${describeHandle(h)} was already ${checked ? 'checked' : 'unchecked'}`, target: fingerprintOf(h) };
  if (!checked && before.kind === 'radio') throw new BrowserAgentError('INVALID_INPUT', `A radio button cannot be unchecked directly.`, 'Check another radio button of the same group instead.');
  await clickElement(s, h);
  const after = await callOnElement<{ checked?: boolean }>(h, choosePage.checkState);
  if (after.checked !== checked) throw new BrowserAgentError('NOT_INTERACTABLE', `Clicked ${describeHandle(h)} but it is still ${after.checked ? 'checked' : 'unchecked'}.`, 'The page may prevent the change; look at the snapshot for a reason (a disabled state, a required step).');
  return { text: `${checked ? 'Checked' : 'Unchecked'} ${describeHandle(h)}`, target: fingerprintOf(h) };
}

/** Sets a native select, checkbox/radio or text field to `value`, choosing the right gesture. */
export async function fillField(s: Scope, h: ElementHandle, value: string | boolean | string[]): Promise<ActionOutcome> {
  // A checkbox drawn as a switch is often a visually hidden input whose label got the ref: the input decides.
  const kind = await callOnElement<string>(h, choosePage.fieldKind);
  if (kind === 'select') return selectOptions(s, h, Array.isArray(value) ? value : [String(value)]);
  if (kind === 'check') {
    const on = typeof value === 'boolean' ? value : !/^(false|off|no|0|unchecked)$/i.test(String(value));
    return setChecked(s, h, on);
  }
  return typeInto(s, h, Array.isArray(value) ? value.join(', ') : String(value), { clear: true });
}
