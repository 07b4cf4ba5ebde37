import { z } from 'zod';
import { perform } from '../actions/scope';
import { scroll } from '../actions/scroll';
import { handleFor, previewOf, refField } from './common';
import { defineTool } from '../contract/types';

export const browserScroll = defineTool({
  name: 'browser_scroll',
  title: 'Scroll',
  description:
    'Scroll the page, or the scrollable area holding an element (ref: the area itself or anything in it, e.g. a row of a list marked [scrollable …] in the snapshot), by direction and amount in pixels (default 80% of the visible height). With a ref and no direction, scrolls that element into view. Reports what scrolled and its new position.',
  schema: z.object({
    direction: z.enum(['up', 'down', 'left', 'right']).optional(),
    amount: z.number().int().min(1).max(1_000_000).optional(),
    ref: refField.optional(),
  }),
  risk: 'input',
  preview: (i, ctx) => previewOf(ctx, `Scrolling ${i.direction ?? (i.ref ? 'to' : 'down')}`, { ref: i.ref }),
  handler: async (i, ctx) => perform(ctx, { settleCapMs: 3000 }, async (s) => scroll(s, { direction: i.direction, amount: i.amount, handle: i.ref ? await handleFor(s.tab, i.ref) : undefined })),
});
