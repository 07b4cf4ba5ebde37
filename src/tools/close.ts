import { z } from 'zod';
import { defineTool, text } from '../contract/types';

export const browserClose = defineTool({
  name: 'browser_close',
  title: 'Close browser',
  description: 'Close the browser and end the session: closes a browser we launched; a browser we attached to is left running (we only detach). The next tool call starts a new session.',
  schema: z.object({}),
  risk: 'session',
  destructive: true,
  preview: async () => ({ message: 'Closing the browser session' }),
  handler: async (_i, ctx) => {
    const kind = ctx.sessions.current?.kind;
    await ctx.sessions.close();
    return text(kind === 'attached' ? 'Detached from the browser (it keeps running).' : kind === 'launched' ? 'Closed the browser.' : 'No browser was open.');
  },
});
