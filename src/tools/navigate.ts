import { z } from 'zod';
import { checkUrl, navigate } from '../actions/navigate';
import { perform } from '../actions/scope';
import { previewOf } from './common';
import { defineTool } from '../contract/types';

export const browserNavigate = defineTool({
  name: 'browser_navigate',
  title: 'Open URL',
  description: 'Navigate to a URL: open a web page in the current tab and wait until it has loaded. http, https and about:blank only. Returns the title (and the final URL if it redirected) and how many interactive elements the page has; browser_snapshot shows them with their refs.',
  schema: z.object({ url: z.string().min(1).max(8192).describe('Full URL, e.g. https://example.com/page') }),
  risk: 'navigate',
  preview: async (i, ctx) => previewOf(ctx, 'Opening', { destination: (() => { try { return checkUrl(i.url, ctx.settings.allowedSchemes); } catch { return i.url; } })() }),
  handler: async (i, ctx) => {
    const url = checkUrl(i.url, ctx.settings.allowedSchemes);
    return perform(ctx, { settleCapMs: Math.min(ctx.settings.maxWaitMs, 20_000), leavesPage: true }, (s) => navigate(s, url, Math.min(ctx.settings.maxWaitMs, 20_000)));
  },
});
