import { z } from 'zod';
import { pressKey } from '../actions/input';
import { focusedName } from '../actions/focusName';
import { parseCombo } from '../actions/keys';
import { perform } from '../actions/scope';
import { previewOf } from './common';
import { confirmFocusAtUse } from '../actions/atUse';
import { defineTool } from '../contract/types';
import { ignore } from '../base/ignore';

export const browserPressKey = defineTool({
  name: 'browser_press_key',
  title: 'Press key',
  description: 'Press a key or combination on the focused element: "Enter", "Escape", "Tab", "ArrowDown", "Control+A", "Shift+Tab", a single character. repeat presses it several times.',
  schema: z.object({
    key: z.string().min(1).max(60),
    repeat: z.number().int().min(1).max(100).optional(),
  }),
  risk: 'input',
  preview: (i, ctx) => previewOf(ctx, `Pressing ${i.key}${i.repeat && i.repeat > 1 ? ` ×${i.repeat}` : ''}`),
  handler: async (i, ctx) => {
    parseCombo(i.key); // reject unknown keys before touching the page
    return perform(ctx, {}, async (s) => {
      const n = i.repeat ?? 1;
      s.pending = { text: `Pressed ${i.key}` };
      // Enter and Space act on whatever has focus when they are pressed: the policy checks that element (atUse.ts).
      const activates = /(^|\+)(Enter|NumpadEnter|Return|Space|Spacebar| )$/i.test(i.key);
      for (let k = 0; k < n; k++) {
        if (activates) await confirmFocusAtUse(ctx, s.tab);
        await pressKey(s.page, i.key);
      }
      const focused = await focusedName(s.tab).catch((e) => ignore(e, 'the key was pressed; where focus went is a nicety', ''));
      return { text: `Pressed ${i.key}${n > 1 ? ` ${n} times` : ''}${focused ? `; focus is on ${focused}` : ''}` };
    });
  },
});
