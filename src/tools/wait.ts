import { z } from 'zod';
import { perform } from '../actions/scope';
import { describeWait, waitFor } from '../actions/wait';
import { BrowserAgentError } from '../base/errors';
import { handleFor, normalizeRef, previewOf, refField } from './common';
import { defineTool } from '../contract/types';

export const browserWait = defineTool({
  name: 'browser_wait',
  title: 'Wait',
  description:
    'Wait for a time (timeMs), for text to appear (text) or disappear (textGone), for an element (ref) to become visible/hidden/enabled/disabled/attached/detached, or for a navigation to finish loading. Always capped (timeoutMs, default 10 s). A dialog opening ends the wait.',
  schema: z.object({
    timeMs: z.number().int().min(0).max(60_000).optional(),
    text: z.string().min(1).max(1000).optional(),
    textGone: z.string().min(1).max(1000).optional(),
    ref: refField.optional(),
    state: z.enum(['visible', 'hidden', 'enabled', 'disabled', 'attached', 'detached']).optional(),
    navigation: z.boolean().optional(),
    timeoutMs: z.number().int().min(100).max(120_000).optional(),
  }),
  risk: 'read',
  readOnly: true,
  preview: (i, ctx) => previewOf(ctx, describeWait(i)),
  handler: async (i, ctx) => {
    if (i.timeMs === undefined && !i.text && !i.textGone && !i.ref && !i.navigation) {
      throw new BrowserAgentError('INVALID_INPUT', 'browser_wait needs something to wait for.', 'Give timeMs, text, textGone, ref (+state) or navigation: true.');
    }
    if (i.state && !i.ref) throw new BrowserAgentError('INVALID_INPUT', 'state needs a ref.', 'Give the ref of the element whose state to wait for.');
    const timeoutMs = Math.min(i.timeoutMs ?? Math.max(10_000, i.timeMs ?? 0), ctx.settings.maxWaitMs);
    return perform(ctx, { settle: false }, async (s) =>
      waitFor(
        s,
        {
          timeMs: i.timeMs,
          text: i.text,
          textGone: i.textGone,
          navigation: i.navigation,
          state: i.ref ? (i.state ?? 'visible') : undefined,
          element: i.ref ? () => handleFor(s.tab, normalizeRef(i.ref!)) : undefined,
          timeoutMs,
        },
        describeWait({ ...i, state: i.ref ? (i.state ?? 'visible') : undefined }).replace(/^Waiting for /, 'Waited for '),
      ),
    );
  },
});
