import type { SkillLibrary } from '../skills/library';
import { skillsText } from '../skills/present';
import { hostWords, siteKey, skillMatchesUrl } from '../skills/sites';
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
    const hits = (await this.library.search({ query: this.task, url, limit: MAX_SKILLS })).filter((h) => fitsTask(h, this.task, key !== undefined));
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

/** URLs and bare host names (`github.com`, `127.0.0.1:8080/x`) written in a task. */
function namedSites(task: string): string[] {
  return [...task.matchAll(/\b(?:https?:\/\/)?((?:[a-z0-9-]+\.)+[a-z]{2,}|\d{1,3}(?:\.\d{1,3}){3}|localhost)(?::\d+)?(?:\/[^\s,;)"']*)?/gi)].map((m) =>
    /^https?:/i.test(m[0]) ? m[0] : `http://${m[0]}`,
  );
}

/**
 * Whether a hit at the start of a run is a skill for this task, not a word in common: a skill
 * for the start page, one written for any site, or one for a site the task names (by URL, or
 * by name: "on GitHub"). When the run starts on a page or the task names where it goes, a skill
 * for some other site is left out (it would only be noise in the context and the panel); with
 * neither, the task's words are all there is to go by.
 */
export function fitsTask(h: SkillHit, task: string, onASite: boolean): boolean {
  if (h.siteMatch || !h.skill.sites.length) return true;
  const urls = namedSites(task);
  if (urls.some((u) => skillMatchesUrl(h.skill.sites, u))) return true;
  const words = new Set(task.toLowerCase().split(/[^\p{L}\p{N}.-]+/u).map((w) => w.replace(/^[.-]+|[.-]+$/g, '')));
  const named = h.skill.sites.some((g) => hostWords(g).split(' ').some((w) => /\p{L}{3,}/u.test(w) && words.has(w.toLowerCase())));
  if (named) return true;
  return !onASite && !urls.length;
}
