/** Where a skill file was found; the chat agent says so when it quotes one. */
export type SkillSource = 'workspace' | 'global' | 'shipped' | 'extra';

/** A site procedure written by a person: one `SKILL.md` (front matter + plain steps). */
export interface Skill {
  /** Absolute path of the SKILL.md file: unique, and what results point at. */
  path: string;
  name: string;
  description: string;
  /** URL globs the skill is for (`github.com/*\/issues*`, `*.example.com`); empty: any site. */
  sites: string[];
  /** Tools allowed while on one of `sites`; absent: the skill does not narrow the tools. */
  allowedTools?: string[];
  /** Notes about what can go wrong (shown with the steps). */
  risk?: string;
  /** The steps, as written. */
  body: string;
  source: SkillSource;
}

/** A SKILL.md that could not be used, and why (shown to the person, never fatal). */
export interface SkillProblem {
  path: string;
  message: string;
}

export interface SkillHit {
  skill: Skill;
  /** Text relevance (BM25, scaled so the best hit is 1) plus 1 when the skill's sites match the page. */
  score: number;
  siteMatch: boolean;
}
