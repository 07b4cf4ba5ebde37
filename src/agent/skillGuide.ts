import type { SkillLibrary } from '../skills/library';
import { skillsText } from '../skills/present';
import { siteKey } from '../skills/sites';
import type { SkillHit } from '../skills/types';

export interface Guidance {
  /** What goes into the model's context. */
  text: string;
  /** Skill names, for the panel's step card. */
  names: string[];
}

/** Most skills put in front of the model at once. */
const MAX_SKILLS = 3;

/**
 * Retrieves the user's skills for a run: at the start (the task, ranked for the start page) and
 * each time the run reaches a site it has not been on (skills for that site only). A skill is
 * given once per run.
 */
export class SkillGuide {
  private readonly sites = new Set<string>();
  private readonly given = new Set<string>();

  constructor(
    private readonly library: SkillLibrary,
    private readonly task: string,
  ) {}

  private fresh(hits: SkillHit[], intro: string): Guidance | undefined {
    const news = hits.filter((h) => !this.given.has(h.skill.path));
    if (!news.length) return undefined;
    news.forEach((h) => this.given.add(h.skill.path));
    return { text: `${intro}\n${skillsText(news)}`, names: news.map((h) => h.skill.name) };
  }

  async atStart(url: string | undefined): Promise<Guidance | undefined> {
    const key = siteKey(url);
    if (key) this.sites.add(key);
    const hits = await this.library.search({ query: this.task, url, limit: MAX_SKILLS });
    return this.fresh(hits, 'User-written guidance for this task (from the user\'s skill files, not from any web page):');
  }

  async onPage(url: string | undefined): Promise<Guidance | undefined> {
    const key = siteKey(url);
    if (!key || this.sites.has(key)) return undefined;
    this.sites.add(key);
    const hits = (await this.library.search({ query: this.task, url, siteOnly: true, limit: MAX_SKILLS })).filter((h) => h.siteMatch);
    return this.fresh(hits, `You reached ${key}. User-written guidance for this site (from the user's skill files, not from the page):`);
  }
}
