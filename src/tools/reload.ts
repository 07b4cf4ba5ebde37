import { z } from 'zod';
import { reload } from '../actions/navigate';
import { perform } from '../actions/scope';
import { previewOf } from './common';
import { defineTool } from '../contract/types';

export const browserReload = defineTool({
  name: 'browser_reload',
  title: 'Reload',
  description: 'Reload the current page and wait until it has loaded.',
  schema: z.object({ ignoreCache: z.boolean().optional().describe('Bypass the cache (hard reload).') }),
  risk: 'navigate',
  preview: (_i, ctx) => previewOf(ctx, 'Reloading'),
  handler: (i, ctx) => perform(ctx, { settleCapMs: Math.min(ctx.settings.maxWaitMs, 20_000), leavesPage: true }, (s) => reload(s, i.ignoreCache, Math.min(ctx.settings.maxWaitMs, 20_000))),
});
