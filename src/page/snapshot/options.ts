// The options of a native <select> as a model reads them: all of them when there are few, else the
// first ones, the selected ones and a count, with the call that lists the rest. Runs inside the page.
import { clean } from './roles';

/** Up to this many options are listed in full on the element line. */
export const ALL_OPTIONS_UP_TO = 12;
/** Of a longer list, this many first ones are shown (the selected ones are always shown). */
const FIRST_OPTIONS = 8;

/** The select whose options a subtree snapshot (`ref` = the select) lists in full. */
let expanded: Element | null = null;

/** Lists every option of `el` (a subtree snapshot of the select itself); null resets. */
export function expandOptionsOf(el: Element | null): void {
  expanded = el && el.localName === 'select' ? el : null;
}

/** An option's label as a model names it: with its <optgroup> first (`Australia › Springfield`), as select_option takes it. */
export function optionLabel(o: HTMLOptionElement): string {
  const g = o.parentElement?.localName === 'optgroup' ? clean((o.parentElement as HTMLOptGroupElement).label) : '';
  return (g ? `${g} › ` : '') + clean(o.label || o.text);
}

function label(o: HTMLOptionElement): string {
  return optionLabel(o).replace(/\|/g, '\\|');
}

/** `options=[Small|Medium|Large]`, or `options=[A|B|…|Z] (9 of 120; browser_snapshot with this ref lists all)`. */
export function optionsWord(sel: HTMLSelectElement): string {
  const opts = Array.from(sel.options);
  if (!opts.length) return 'options=[]';
  if (opts.length <= ALL_OPTIONS_UP_TO || sel === expanded) return `options=[${opts.map(label).join('|')}]`;
  const shown: string[] = [];
  let gap = false;
  opts.forEach((o, i) => {
    if (i < FIRST_OPTIONS || o.selected) {
      if (gap) shown.push('…');
      gap = false;
      shown.push(label(o));
    } else gap = true;
  });
  if (gap) shown.push('…');
  const listed = shown.filter((s) => s !== '…').length;
  return `options=[${shown.join('|')}] (${listed} of ${opts.length}; browser_snapshot with this ref lists all)`;
}
