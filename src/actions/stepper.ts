// A custom spinbutton or slider (role=spinbutton/slider on a div) takes no text: a person sets it with the arrow
// keys. Typing into one used to "type key by key" into nothing and report the old value; fill_form counted it
// as filled. Here the value is reached with ArrowUp/ArrowDown, measured after the first key, and checked.
import { BrowserAgentError } from '../base/errors';
import type { ElementHandle } from '../snapshot/types';
import { fingerprintOf } from './click';
import { callOnElement, describeHandle } from './element';
import { pressKey } from './input';
import type { ActionOutcome, Scope } from './scopeTypes';
import type { StepperReading } from '../page/actions/fields';
import { pageFns } from '../page/fn';
import fieldsFns from '../page/actions/fields.ts?pagefn';

const fieldsPage = pageFns<typeof import('../page/actions/fields')>(fieldsFns);

/** Key presses at most (a 0–1000 slider stepping by 1 from one end to the other). */
const MAX_PRESSES = 1000;

export async function setByArrows(s: Scope, h: ElementHandle, value: string): Promise<ActionOutcome> {
  const what = `[${h.ref}] ${describeHandle(h)}`;
  const read = (focus = false) => callOnElement<StepperReading>(h, fieldsPage.stepperReading, [focus]);
  const start = await read(true);
  const range = start.min !== null && start.max !== null ? ` between ${start.min} and ${start.max}` : '';
  const target = Number(value.trim());
  if (!value.trim() || !Number.isFinite(target)) throw new BrowserAgentError('INVALID_INPUT', `${what} takes a number${range}, not "${value}".`, 'Give the number to set it to.');
  if (start.now === null) throw new BrowserAgentError('NOT_INTERACTABLE', `${what} does not say its value (no aria-valuenow), so it cannot be set to a number.`, 'Focus it and use browser_press_key (ArrowUp/ArrowDown), or drag it, and check the page.');
  if ((start.min !== null && target < start.min) || (start.max !== null && target > start.max)) throw new BrowserAgentError('INVALID_INPUT', `${what} takes a number${range}; ${target} is outside it.`, 'Give a number within its range.');
  let now = start.now;
  let presses = 0;
  if (now !== target) {
    const key = (up: boolean) => pressKey(s.page, up ? 'ArrowUp' : 'ArrowDown');
    await key(target > now);
    presses++;
    const after = (await read()).now ?? now;
    const step = Math.abs(after - now);
    if (!step) throw new BrowserAgentError('NOT_INTERACTABLE', `${what} did not change with the arrow keys (still ${now}).`, 'Try dragging it with browser_drag, or clicking its own buttons.');
    now = after;
    // The rest at once, then up to three corrections (a page that steps unevenly).
    const rest = Math.min(MAX_PRESSES - presses, Math.max(0, Math.round(Math.abs(target - now) / step)));
    for (let i = 0; i < rest; i++) await key(target > now);
    presses += rest;
    now = (await read()).now ?? now;
    for (let i = 0; i < 3 && now !== target && presses < MAX_PRESSES; i++, presses++) {
      await key(target > now);
      const next = (await read()).now ?? now;
      if (next === now) break;
      now = next;
    }
    if (now !== target) throw new BrowserAgentError('NOT_INTERACTABLE', `${what} stopped at ${now}, not ${target}, after ${presses} arrow keys (it steps by ${step}).`, 'Pick a value on its steps, or set it the way the page offers.');
  }
  return { text: `Set ${describeHandle(h)} to ${target}${presses ? ` with ${presses} arrow key${presses === 1 ? '' : 's'} (was ${start.now})` : ' (it already was)'}`, target: fingerprintOf(h) };
}
