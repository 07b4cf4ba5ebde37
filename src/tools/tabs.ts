import { clip, fenceLines } from '../base/untrusted';
import { z } from 'zod';
import { openScope } from '../actions/scope';
import { checkUrl } from '../actions/navigate';
import { SettleWatch } from '../actions/settle';
import { blockedError, blockedNavigation } from '../actions/blockedRequests';
import { BrowserAgentError } from '../base/errors';
import type { BrowserSession, TabInfo } from '../session/browserSession';
import { previewOf } from './common';
import { defineTool, text, type ToolContext } from '../contract/types';
import { ignore } from '../base/ignore';

/** A page can make its URL megabytes long (pushState); the list is where the whole URL is, up to this. */
const MAX_URL = 2000;

/** `0. (active) Title http://… [id 1A2B3C4D]`: a tab as its page names it (title and URL are page text). */
function tabLine(t: { title: string; url: string; id: string; active?: boolean }, i?: number): string {
  return `${i === undefined ? '' : `${i}. `}${t.active ? '(active) ' : ''}${t.title ? clip(t.title, 120) : '(no title)'} ${clip(t.url, MAX_URL)} [id ${t.id.slice(0, 8)}]`;
}

/** The tabs, in one fence: the page-derived text of a result is fenced once. */
function list(tabs: TabInfo[], first: string[] = []): string {
  return fenceLines([...first, ...tabs.map((t, i) => tabLine(t, i))]);
}

/** The tabs this front door may see (attached MCP processes each see only their own). */
function visibleTabs(browser: BrowserSession, ctx: ToolContext): TabInfo[] {
  return browser.tabs().filter((t) => !ctx.ownsTab || ctx.ownsTab(t.id));
}

function findTab(tabs: TabInfo[], key: { index?: number; id?: string }): TabInfo {
  const t = key.id ? tabs.find((x) => x.id === key.id || x.id.startsWith(key.id!)) : key.index !== undefined ? tabs[key.index] : undefined;
  if (!t) throw new BrowserAgentError('TAB_CLOSED', `No tab ${key.id ? `with id ${key.id}` : `at index ${key.index}`}.`, `Open tabs:\n${list(tabs)}`);
  return t;
}

export const browserTabs = defineTool({
  name: 'browser_tabs',
  title: 'Tabs',
  description: 'List, open (optionally with a URL), select or close tabs. Tabs are named by index or id from the list. Actions apply to the active tab.',
  schema: z.object({
    action: z.enum(['list', 'new', 'select', 'close']),
    index: z.number().int().min(0).max(1000).optional(),
    id: z.string().min(1).max(64).optional(),
    url: z.string().max(8192).optional().describe('For "new": the URL to open.'),
  }),
  risk: 'navigate',
  preview: (i, ctx) => previewOf(ctx, i.action === 'list' ? 'Listing tabs' : i.action === 'new' ? 'Opening a new tab' : i.action === 'select' ? 'Switching tab' : 'Closing a tab', { destination: i.url }),
  handler: async (i, ctx) => {
    const browser = await ctx.browser();
    if (i.action === 'list') return text(list(visibleTabs(browser, ctx)));
    if (i.action === 'new') {
      const url = i.url ? checkUrl(i.url, ctx.settings.allowedSchemes) : 'about:blank';
      const tab = await browser.newTab('about:blank');
      const s = await openScope({ ...ctx, tab: async () => tab });
      const watch = new SettleWatch(tab, s.page, s.tabObs, s.browserObs);
      const mark = browser.guard.mark();
      if (url !== 'about:blank') await s.page.send('Page.navigate', { url });
      await watch.settle({ capMs: Math.min(ctx.settings.maxWaitMs, 20_000) });
      // The request guard stopped its navigation (a redirect into a blocked origin): the tab goes, the model is told the rule.
      const stopped = blockedNavigation(s, mark);
      if (stopped) {
        s.browserObs.dropOpenedTab(tab);
        await browser.closeTab(tab.targetId).catch((e) => ignore(e, 'the tab may be gone already'));
        throw blockedError(stopped, 'The new tab was closed.');
      }
      await tab.refreshInfo();
      // This result names the tab: the next action must not report it again as one it opened.
      s.browserObs.dropOpenedTab(tab);
      return text(`Opened a new tab; it is now active:\n${list(visibleTabs(browser, ctx))}`);
    }
    if (i.index === undefined && !i.id) {
      if (i.action === 'close') {
        const active = await browser.activeTab();
        await browser.closeTab(active.targetId);
        return text(`Closed the active tab; the tabs now:\n${list(visibleTabs(browser, ctx))}`);
      }
      throw new BrowserAgentError('INVALID_INPUT', 'Give index or id of the tab.', 'List tabs with action "list".');
    }
    const t = findTab(visibleTabs(browser, ctx), i);
    if (i.action === 'select') {
      const tab = await browser.selectTab(t.id);
      await tab.refreshInfo();
      return text(`Selected tab ${t.id.slice(0, 8)}; it is now active:\n${list(visibleTabs(browser, ctx))}`);
    }
    await browser.closeTab(t.id);
    return text(`Closed tab ${t.id.slice(0, 8)}; the tabs now:\n${list(visibleTabs(browser, ctx), [`Closed: ${tabLine(t)}`])}`);
  },
});
