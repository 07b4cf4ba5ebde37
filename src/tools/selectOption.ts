import { z } from 'zod';
import { selectOptions } from '../actions/choose';
import { perform } from '../actions/scope';
import { handleFor, previewOf, refField } from './common';
import { defineTool } from '../contract/types';

export const browserSelectOption = defineTool({
  name: 'browser_select_option',
  title: 'Select option',
  description: 'Choose one or several options of a native <select> by value or visible label ("Group › Label" for an option of an <optgroup>, as the snapshot lists it), or of a custom dropdown (an ARIA combobox or listbox: it is opened, or for a searchable one the label typed, and the option with that label clicked). For other custom dropdowns, click them open and click the option.',
  schema: z.object({ ref: refField, values: z.array(z.string().max(1000)).min(1).max(100).describe('Option values or labels.') }),
  risk: 'input',
  preview: (i, ctx) => previewOf(ctx, `Selecting ${i.values.map((v) => `"${v}"`).join(', ')} in`, { ref: i.ref }),
  handler: async (i, ctx) => perform(ctx, {}, async (s) => selectOptions(s, await handleFor(s.tab, i.ref), i.values)),
});
