import { create, insertMultiple, search, type AnyOrama } from '@orama/orama';
import { hostWords, skillMatchesUrl } from './sites';
import { bilingualTokenizer } from './tokenizer';
import type { Skill, SkillHit } from './types';

export interface SkillQuery {
  /** The task or words to look for. */
  query: string;
  /** The page the agent is on: skills for that site rank first. */
  url?: string;
  /** Only skills for `url`'s site, plus skills written for any site. */
  siteOnly?: boolean;
  limit?: number;
}

/** Hits scoring below this share of the best text score are dropped: they cost prompt tokens and rarely help. */
export const RELATIVE_CUTOFF = 0.5;
const BOOST = { name: 3, description: 2, hosts: 4, body: 1 };

/**
 * Full-text BM25 over the skills (Orama), bilingual tokens, and site matching on top: a skill
 * whose `sites` match the page gets +1, so it ranks above any text-only match.
 */
export class SkillIndex {
  private constructor(
    private readonly db: AnyOrama,
    readonly skills: readonly Skill[],
  ) {}

  static async build(skills: readonly Skill[]): Promise<SkillIndex> {
    const db = create({
      schema: { name: 'string', description: 'string', hosts: 'string', body: 'string' } as const,
      components: { tokenizer: bilingualTokenizer() },
    });
    await insertMultiple(db, skills.map((s, i) => ({ id: String(i), name: s.name, description: s.description, hosts: s.sites.map(hostWords).join(' '), body: s.body })));
    return new SkillIndex(db, skills);
  }

  async search(q: SkillQuery): Promise<SkillHit[]> {
    const limit = q.limit ?? 3;
    const text = new Map<number, number>();
    if (q.query.trim()) {
      const r = await search(this.db, { term: q.query.slice(0, 2000), properties: ['name', 'description', 'hosts', 'body'], boost: BOOST, threshold: 1, limit: this.skills.length || 1 });
      for (const h of r.hits) text.set(Number(h.id), h.score);
    }
    const best = Math.max(0, ...text.values());
    const hits: SkillHit[] = [];
    this.skills.forEach((skill, i) => {
      const siteMatch = skillMatchesUrl(skill.sites, q.url);
      const rel = best > 0 ? (text.get(i) ?? 0) / best : 0;
      if (q.siteOnly && skill.sites.length && !siteMatch) return;
      if (!siteMatch && rel < RELATIVE_CUTOFF) return;
      hits.push({ skill, score: rel + (siteMatch ? 1 : 0), siteMatch });
    });
    return hits.sort((a, b) => b.score - a.score || a.skill.name.localeCompare(b.skill.name)).slice(0, limit);
  }
}
