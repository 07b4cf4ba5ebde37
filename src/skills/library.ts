import { EventEmitter } from 'node:events';
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseSkill } from './parse';
import { SkillIndex, type SkillQuery } from './searchIndex';
import { skillMatchesUrl } from './sites';
import type { Skill, SkillHit, SkillProblem, SkillSource } from './types';
import { ignore } from '../base/ignore';

export interface SkillFolder {
  path: string;
  source: SkillSource;
}

const MAX_DEPTH = 4;
const MAX_FILES = 2000;

async function findSkillFiles(dir: string, depth = 0, out: string[] = []): Promise<string[]> {
  if (depth > MAX_DEPTH || out.length >= MAX_FILES) return out;
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) await findSkillFiles(p, depth + 1, out);
    else if (e.isFile() && e.name.toLowerCase() === 'skill.md') out.push(p);
  }
  return out;
}

/**
 * The skills of a few folders (workspace, user, shipped), indexed for search and rebuilt when a
 * file changes: fs.watch (recursive) on each folder, debounced; never a poll. A broken SKILL.md is
 * listed in `problems` and skipped; the others keep working. Emits `changed` after each rebuild.
 */
export class SkillLibrary extends EventEmitter {
  private index?: SkillIndex;
  private loading?: Promise<SkillIndex>;
  private watchers = new Map<string, { watcher: FSWatcher; target: string }>();
  private timer?: NodeJS.Timeout;
  private generation = 0;
  problems: SkillProblem[] = [];

  constructor(
    private folders: SkillFolder[],
    private readonly opts: { watch?: boolean; debounceMs?: number } = {},
  ) {
    super();
  }

  /** Replaces the folder list (settings changed, workspace opened) and rebuilds. */
  setFolders(folders: SkillFolder[]): Promise<void> {
    this.folders = folders;
    return this.reload();
  }

  get skills(): readonly Skill[] {
    return this.index?.skills ?? [];
  }

  private async ready(): Promise<SkillIndex> {
    if (this.index) return this.index;
    return (this.loading ??= this.build());
  }

  /** Re-reads every folder now (also what the watcher calls). */
  async reload(): Promise<void> {
    this.loading = this.build();
    await this.loading;
  }

  private async build(): Promise<SkillIndex> {
    const gen = ++this.generation;
    const skills: Skill[] = [];
    const problems: SkillProblem[] = [];
    const seen = new Set<string>();
    for (const folder of this.folders) {
      if (this.opts.watch) this.watchFolder(folder.path);
      for (const file of await findSkillFiles(folder.path)) {
        if (seen.has(file)) continue;
        seen.add(file);
        try {
          skills.push(parseSkill(await fs.readFile(file, 'utf8'), file, folder.source));
        } catch (e) {
          problems.push({ path: file, message: (e as Error).message });
        }
      }
    }
    const index = await SkillIndex.build(skills);
    // A slower, older rebuild never replaces a newer one.
    if (gen === this.generation) {
      this.index = index;
      this.problems = problems;
      this.loading = undefined;
      this.emit('changed', { skills: skills.length, problems });
    }
    return this.index ?? index;
  }

  /**
   * Watches a skill folder recursively; a folder that does not exist yet is waited for by
   * watching its nearest existing parent (one directory, not recursive) until it appears.
   */
  private watchFolder(path: string): void {
    const current = this.watchers.get(path);
    const exists = existsSync(path);
    let target = path;
    while (!existsSync(target) && dirname(target) !== target) target = dirname(target);
    if (current?.target === target) return;
    current?.watcher.close();
    try {
      const w = watch(target, { recursive: exists, persistent: false }, () => this.scheduleReload());
      w.on('error', () => {
        w.close();
        this.watchers.delete(path);
      });
      this.watchers.set(path, { watcher: w, target });
    } catch (e) {
      ignore(e, 'a folder that cannot be watched is still read on the next reload');
    }
  }

  private scheduleReload(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.reload().catch((e) => ignore(e, 'a failed reload keeps the skills read before')), this.opts.debounceMs ?? 150);
  }

  async search(q: SkillQuery): Promise<SkillHit[]> {
    return (await this.ready()).search(q);
  }

  /** Skills written for the page's site. */
  async forUrl(url: string | undefined): Promise<Skill[]> {
    return (await this.ready()).skills.filter((s) => skillMatchesUrl(s.sites, url));
  }

  /**
   * Least privilege: on a page some skills were written for, only the tools those skills allow
   * (the union over the matching skills that declare `allowed-tools`). Undefined: no narrowing.
   */
  async allowedToolsFor(url: string | undefined): Promise<{ tools: Set<string>; skills: string[] } | undefined> {
    const narrowing = (await this.forUrl(url)).filter((s) => s.allowedTools);
    if (!narrowing.length) return undefined;
    return { tools: new Set(narrowing.flatMap((s) => s.allowedTools!)), skills: narrowing.map((s) => s.name) };
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const w of this.watchers.values()) w.watcher.close();
    this.watchers.clear();
    this.removeAllListeners();
  }
}
