import { z } from 'zod';
import { fillField } from '../actions/choose';
import { perform } from '../actions/scope';
import { errorMessage, isAgentError } from '../base/errors';
import { handleFor, previewOf, refField } from './common';
import { defineTool, type ActionPreview } from '../contract/types';

export const browserFillForm = defineTool({
  name: 'browser_fill_form',
  title: 'Fill form',
  description:
    'Fill several fields in one call: text fields (string), checkboxes/radios/switches (true/false), native selects and ARIA custom dropdowns (option value or label — "Group › Label" for an <optgroup> — or a list for multi-selects), custom sliders/spinbuttons (a number). Fields are filled in order; the result lists each field and stops at the first one that fails.',
  schema: z.object({
    fields: z
      .array(z.object({ ref: refField, value: z.union([z.string().max(100_000), z.boolean(), z.array(z.string()).max(100)]) }))
      .min(1)
      .max(100),
  }),
  risk: 'input',
  preview: async (i, ctx) => {
    // The first field is the target; any secret field (password, card, one-time code) marks the whole call.
    // One at a time: previews of the same tab run side by side sometimes lost a field's element (it then
    // counted as unknown, and a ticked "Delete my data" box went unrated).
    const each: ActionPreview[] = [];
    for (const f of i.fields.slice(0, 20)) each.push(await previewOf(ctx, 'Filling', { ref: f.ref }));
    const first = each[0];
    const names = each.map((p) => (p.target?.role ? `${p.target.role}${p.target.name ? ` "${p.target.name}"` : ''}` : `[${p.target?.ref}]`));
    // Each field's element and value: choosing "Delete account" or ticking "Delete my data" is rated like a click on it.
    // (Text values stay out: only choices and ticks are rated this way, and typed text may be a secret.)
    const fields = each.map((p, n) => {
      const v = i.fields[n].value;
      const choice = typeof v === 'boolean' || /\b(select|combobox|listbox)\b/.test(`${p.target?.tag ?? ''} ${p.target?.role ?? ''}`);
      return { target: p.target, value: choice ? v : undefined };
    });
    return { ...first, fields, secret: each.some((p) => p.secret) || undefined, message: `Filling ${i.fields.length} field(s): ${names.join(', ')}${first.url ? ` on ${new URL(first.url).host || first.url}` : ''}` };
  },
  handler: async (i, ctx) =>
    perform(ctx, {}, async (s) => {
      // Every ref must name an element of this page before the first field is touched: a stale one refuses the whole form.
      for (const f of i.fields) await handleFor(s.tab, f.ref);
      const done: string[] = [];
      for (const [n, f] of i.fields.entries()) {
        try {
          const h = await handleFor(s.tab, f.ref);
          done.push(`- ${(await fillField(s, h, f.value)).text}`);
        } catch (e) {
          const why = isAgentError(e) ? e.toText() : errorMessage(e);
          done.push(`- [${f.ref}] FAILED: ${why}`, `Stopped; ${i.fields.length - n - 1} field(s) after it were not filled.`);
          return { text: `Filled ${n} of ${i.fields.length} field(s)`, details: done };
        }
      }
      return { text: `Filled ${i.fields.length} field(s)`, details: done };
    }),
});
