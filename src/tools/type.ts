import { z } from 'zod';
import { perform } from '../actions/scope';
import { typeFocused, typeInto } from '../actions/type';
import { handleFor, previewOf, refField } from './common';
import { defineTool } from '../contract/types';

export const browserType = defineTool({
  name: 'browser_type',
  title: 'Type text',
  description:
    'Type text into a text field, textarea or contenteditable by ref (or into the focused element without a ref). Replaces the current content unless clear is false; submit presses Enter afterwards. Date/time/color/range inputs take their value string (e.g. 2024-05-31); a custom slider or spinbutton takes a number (set with the arrow keys).',
  schema: z.object({
    ref: refField.optional(),
    text: z.string().max(100_000).describe('The text to type (at most 100,000 characters).'),
    clear: z.boolean().optional().describe('Replace existing content (default true); false appends.'),
    submit: z.boolean().optional().describe('Press Enter after typing.'),
    slowly: z.boolean().optional().describe('Type key by key (for widgets that react to each keystroke, like some autocompletes).'),
  }),
  risk: 'input',
  preview: (i, ctx) => previewOf(ctx, i.submit ? 'Typing and submitting into' : 'Typing into', { ref: i.ref }),
  handler: async (i, ctx) =>
    perform(ctx, {}, async (s) => {
      const o = { clear: i.clear, submit: i.submit, keystrokes: i.slowly };
      return i.ref ? typeInto(s, await handleFor(s.tab, i.ref), i.text, o) : typeFocused(s, i.text, { ...o, clear: i.clear ?? false });
    }),
});
