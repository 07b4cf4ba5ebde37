import type { ActionPreview } from '../contract/types';
import type { PolicySettings } from './settings';
import { consequentialChoice, consequentialTarget } from './targetRules';

/**
 * browser_fill_form sets selects, comboboxes and checkboxes as well as text: choosing "Delete account" in an
 * action menu or ticking "Delete my data" is as consequential as the click that would do it.
 */
export function filledChoice(preview: ActionPreview | undefined, settings: PolicySettings): string | undefined {
  for (const f of preview?.fields ?? []) {
    const t = f.target;
    if (!t) continue;
    if (f.value === true) {
      const why = consequentialTarget(t, settings);
      if (why) return `it ticks a box whose ${why.replace(/^its /, '')}`;
      continue;
    }
    const kind = `${t.tag ?? t.facts?.tag ?? ''} ${t.role ?? ''}`;
    if (/\b(select|combobox|listbox)\b/.test(kind)) {
      const why = consequentialChoice(Array.isArray(f.value) ? f.value : [f.value], t, settings);
      if (why) return why;
    }
  }
  return undefined;
}
