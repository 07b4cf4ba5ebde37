import { z } from 'zod';
import { goHistory } from '../actions/navigate';
import { perform } from '../actions/scope';
import { previewOf } from './common';
import { defineTool } from '../contract/types';

export const browserNavigateForward = defineTool({
  name: 'browser_navigate_forward',
  title: 'Go forward',
  description: 'Navigate forward in this tab\'s history, like the Forward button.',
  schema: z.object({}),
  risk: 'navigate',
  preview: (_i, ctx) => previewOf(ctx, 'Going forward'),
  handler: (_i, ctx) => perform(ctx, { leavesPage: true }, (s) => goHistory(s, 1, Math.min(ctx.settings.maxWaitMs, 20_000))),
});
