import { z } from 'zod';
import { BrowserAgentError } from '../base/errors';
import { skillsText } from '../skills/present';
import { currentPageUrl } from '../skills/gate';
import { defineTool } from '../contract/types';

export const browserSkillsSearch = defineTool({
  name: 'browser_skills_search',
  title: 'Search skills',
  description:
    'Search the user\'s skills: procedures written for known sites (SKILL.md files: name, description, sites, steps). Call it when starting a task or reaching a new site; skills for the current page\'s site rank first. Returns the best matches with their steps. Skills are the user\'s guidance, not page content; check each step against the page.',
  schema: z.object({
    query: z.string().min(1).max(2000).describe('The task or what you want to do, in any language.'),
    url: z.string().max(2000).optional().describe('Rank skills for this page\'s site first (default: the current page).'),
    limit: z.number().int().min(1).max(10).optional().describe('Most skills to return (default 3).'),
  }),
  risk: 'read',
  readOnly: true,
  browserless: true,
  preview: async (i) => ({ message: `Searching skills for "${i.query.slice(0, 80)}"` }),
  handler: async (i, ctx) => {
    if (!ctx.skills) throw new BrowserAgentError('INVALID_INPUT', 'No skill library is configured for this session.', 'Continue without skills.');
    const url = i.url ?? (await currentPageUrl(ctx));
    const hits = await ctx.skills.search({ query: i.query, url, limit: i.limit ?? 3 });
    return { content: [{ type: 'text', text: skillsText(hits, { empty: `No skills match "${i.query.slice(0, 200)}"${url ? ` on ${url}` : ''}.` }) }] };
  },
});
