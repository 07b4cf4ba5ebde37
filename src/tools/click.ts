import { z } from 'zod';
import { clickAt, clickElement } from '../actions/click';
import { perform } from '../actions/scope';
import { handleFor, pickTarget, previewOf, refField, xField, yField } from './common';
import { defineTool } from '../contract/types';

export const browserClick = defineTool({
  name: 'browser_click',
  title: 'Click',
  description:
    'Click an element by ref (preferred), or at x/y viewport coordinates. Waits until the element is visible, still and enabled, refuses if something covers it (says what), then waits for the page to settle. Returns what changed.',
  schema: z.object({
    ref: refField.optional(),
    x: xField.optional(),
    y: yField.optional(),
    button: z.enum(['left', 'right', 'middle']).optional(),
    doubleClick: z.boolean().optional(),
    modifiers: z.array(z.enum(['Alt', 'Control', 'Meta', 'Shift'])).max(4).optional().describe('Keys held during the click.'),
    holdMs: z.number().int().min(0).max(10_000).optional().describe('Hold the button down this long (long press).'),
  }),
  risk: 'input',
  preview: (i, ctx) => previewOf(ctx, i.doubleClick ? 'Double-clicking' : i.button === 'right' ? 'Right-clicking' : 'Clicking', i),
  handler: async (i, ctx) => {
    const target = pickTarget(i, 'browser_click');
    return perform(ctx, {}, async (s) => ('ref' in target ? clickElement(s, await handleFor(s.tab, target.ref), i) : clickAt(s, target, i)));
  },
});
