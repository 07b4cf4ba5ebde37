import { z } from 'zod';
import { hoverAt, hoverElement } from '../actions/click';
import { perform } from '../actions/scope';
import { handleFor, pickTarget, previewOf, refField, xField, yField } from './common';
import { defineTool } from '../contract/types';

export const browserHover = defineTool({
  name: 'browser_hover',
  title: 'Hover',
  description: 'Move the mouse over an element (ref) or a point (x/y), e.g. to open a hover menu or show a tooltip.',
  schema: z.object({ ref: refField.optional(), x: xField.optional(), y: yField.optional() }),
  risk: 'input',
  preview: (i, ctx) => previewOf(ctx, 'Hovering over', i),
  handler: async (i, ctx) => {
    const target = pickTarget(i, 'browser_hover');
    return perform(ctx, {}, async (s) => ('ref' in target ? hoverElement(s, await handleFor(s.tab, target.ref)) : hoverAt(s, target)));
  },
});
