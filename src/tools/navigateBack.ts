import { z } from 'zod';
import { goHistory } from '../actions/navigate';
import { perform } from '../actions/scope';
import { previewOf } from './common';
import { defineTool } from '../contract/types';

export const browserNavigateBack = defineTool({
  name: 'browser_navigate_back',
  title: 'Go back',
  description: 'Navigate back to the previous page in this tab\'s history, like the Back button.',
  schema: z.object({}),
  risk: 'navigate',
  preview: (_i, ctx) => previewOf(ctx, 'Going back'),
  handler: (_i, ctx) => perform(ctx, { leavesPage: true }, (s) => goHistory(s, -1, Math.min(ctx.settings.maxWaitMs, 20_000))),
});
