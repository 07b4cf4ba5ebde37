import type { SkillLibrary } from './library';

/** Reads only the skill files, never the page: allowed on every site so guidance stays reachable. */
export const ALWAYS_ALLOWED = new Set(['browser_skills_search']);

export interface ToolNarrowing {
  /** Tools the matching skills allow (plus ALWAYS_ALLOWED). */
  tools: Set<string>;
  /** Names of the skills that narrowed, for messages. */
  skills: string[];
}

/** The narrowing in force on `url`, or undefined when no skill for that site declares allowed-tools. */
export async function narrowingFor(library: SkillLibrary | undefined, url: string | undefined): Promise<ToolNarrowing | undefined> {
  if (!library || !url) return undefined;
  const n = await library.allowedToolsFor(url);
  if (!n) return undefined;
  return { tools: new Set([...n.tools, ...ALWAYS_ALLOWED]), skills: n.skills };
}

export function isAllowed(n: ToolNarrowing | undefined, tool: string): boolean {
  return !n || n.tools.has(tool);
}

/** Why a tool was refused, for the model and the audit log. */
export function refusalReason(n: ToolNarrowing, tool: string): string {
  const who = n.skills.length === 1 ? `the skill "${n.skills[0]}"` : `the skills ${n.skills.map((s) => `"${s}"`).join(', ')}`;
  return `${tool} is not allowed on this site: ${who} allow${n.skills.length === 1 ? 's' : ''} only ${[...n.tools].sort().join(', ')}`;
}

/**
 * The page a front door is on, without side effects: never launches a browser, and reads the tab
 * list rather than activeTab() (which opens a tab when none is left).
 */
export function currentPageUrl(ctx: { sessions: { current?: { tabs(): Array<{ url: string; active: boolean }> } } }): string | undefined {
  try {
    const tabs = ctx.sessions.current?.tabs() ?? [];
    return (tabs.find((t) => t.active) ?? (tabs.length === 1 ? tabs[0] : undefined))?.url;
  } catch {
    return undefined;
  }
}
