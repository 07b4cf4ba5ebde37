import { fenceInline } from '../base/untrusted';
import { z } from 'zod';
import { perform } from '../actions/scope';
import { BrowserAgentError } from '../base/errors';
import { previewOf } from './common';
import { defineTool } from '../contract/types';

export const browserHandleDialog = defineTool({
  name: 'browser_handle_dialog',
  title: 'Answer dialog',
  description: 'Accept or dismiss the open JavaScript dialog (alert, confirm, prompt, beforeunload). promptText is the answer typed into a prompt.',
  schema: z.object({ accept: z.boolean(), promptText: z.string().max(10_000).optional() }),
  risk: 'input',
  preview: async (i, ctx) => {
    const p = await previewOf(ctx, i.accept ? 'Accepting the dialog' : 'Dismissing the dialog');
    // Accepting "Delete your account? This cannot be undone." is the delete: the policy rates the dialog's words.
    const d = await ctx.sessions.current?.activeTab().then((t) => t.dialog, () => undefined);
    return d ? { ...p, target: { role: 'dialog', tag: 'dialog', name: d.message.slice(0, 300), facts: { tag: 'dialog', visible: d.message.slice(0, 300) } } } : p;
  },
  handler: async (i, ctx) =>
    perform(ctx, { allowDialog: true }, async (s) => {
      const d = s.tab.dialog;
      if (!d) throw new BrowserAgentError('TARGET_NOT_FOUND', 'No dialog is open.', 'Continue with the page; dialogs are reported in action results when they appear.');
      const session = d.sessionId === s.page.id ? s.page : s.tab.frameSessions().find((f) => f.session.id === d.sessionId)?.session ?? s.page;
      const closed = new Promise<void>((r) => s.tab.once('dialogClosed', () => r()));
      await session.send('Page.handleJavaScriptDialog', { accept: i.accept, promptText: i.promptText });
      await Promise.race([closed, new Promise((r) => setTimeout(r, 1000))]);
      if (s.tab.dialog === d) s.tab.dialog = undefined;
      const answer = d.type === 'prompt' && i.accept && i.promptText !== undefined ? ` with "${i.promptText}"` : '';
      return { text: `${i.accept ? 'Accepted' : 'Dismissed'} the ${d.type} ${fenceInline(d.message.slice(0, 200))}${answer}` };
    }),
});
