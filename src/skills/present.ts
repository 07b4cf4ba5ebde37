import type { SkillHit } from './types';

/** Longest part of one skill's steps put in front of a model. */
export const MAX_STEPS_CHARS = 1500;

function cap(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max).trimEnd()}\n[… ${text.length - max} more characters in the skill file]`;
}

/** One skill as the model reads it: a fenced block so its end cannot be faked by the body. */
export function skillBlock(h: SkillHit, maxSteps = MAX_STEPS_CHARS): string {
  const s = h.skill;
  const body = cap(s.body, maxSteps).replace(/<\/?user-skill[^>]*>/gi, (m) => m.replace('<', '‹'));
  const head = [
    `name: ${s.name}`,
    `description: ${s.description}`,
    s.sites.length ? `sites: ${s.sites.join(', ')}${h.siteMatch ? ' (matches the current page)' : ''}` : 'sites: any',
    s.allowedTools ? `allowed-tools: ${s.allowedTools.join(', ')}` : undefined,
    s.risk ? `risk: ${s.risk}` : undefined,
  ].filter(Boolean);
  return `<user-skill source="${s.source}">\n${head.join('\n')}\nsteps:\n${body}\n</user-skill>`;
}

/** What the chat agent and the browser_skills_search tool return for a set of hits. */
export function skillsText(hits: SkillHit[], opts: { maxSteps?: number; empty?: string } = {}): string {
  if (!hits.length) return opts.empty ?? 'No skills match.';
  return [
    `${hits.length} skill${hits.length === 1 ? '' : 's'} (procedures written by the user for known sites; follow them when they fit, check each step against the page, and prefer the page when they disagree):`,
    ...hits.map((h) => skillBlock(h, opts.maxSteps)),
  ].join('\n');
}
