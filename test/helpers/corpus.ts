import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The shared corpus of saved real pages (`shared/corpus/pages/*.html`, Apache-2.0, not in this
 * repository). Found through BROWSER_AGENT_CORPUS (the corpus folder or its `pages/` folder), else as
 * `shared/corpus` in the repository's parent folders — a worktree in `/work/wt/<name>` has no
 * `../shared` beside it, but `/work/shared` is two levels up.
 */
export interface Corpus {
  dir: string;
  /** Page file names, sorted. */
  pages: string[];
}

export type CorpusLookup = { corpus: Corpus; reason?: undefined } | { corpus?: undefined; reason: string };

const HINT = 'set BROWSER_AGENT_CORPUS to the corpus folder, or put it at ../shared/corpus';

function pagesIn(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith('.html')).sort();
}

function isDir(p: string): boolean {
  return existsSync(p) && statSync(p).isDirectory();
}

/**
 * `start` is where the parent search begins (default: this file's folder, inside the repository);
 * `stop`, if given, is the last folder searched (tests use it to stay inside a temporary folder).
 */
export function findCorpus(env: NodeJS.ProcessEnv = process.env, start: string = __dirname, stop?: string): CorpusLookup {
  const fromEnv = env.BROWSER_AGENT_CORPUS;
  if (fromEnv) {
    const base = resolve(fromEnv);
    const dir = isDir(join(base, 'pages')) ? join(base, 'pages') : base;
    // A path that was asked for but is wrong is reported as such, never replaced by a guess.
    if (!isDir(dir)) return { reason: `BROWSER_AGENT_CORPUS=${fromEnv} is not a folder` };
    const pages = pagesIn(dir);
    return pages.length ? { corpus: { dir, pages } } : { reason: `BROWSER_AGENT_CORPUS=${fromEnv} holds no .html pages` };
  }
  for (let d = resolve(start); ; d = dirname(d)) {
    const dir = join(d, 'shared', 'corpus', 'pages');
    if (isDir(dir)) {
      const pages = pagesIn(dir);
      if (pages.length) return { corpus: { dir, pages } };
    }
    if (dirname(d) === d || (stop && resolve(stop) === d)) break;
  }
  return { reason: `no page corpus found (${HINT})` };
}

/** True when CI is set to anything but "", "0" or "false" (the same rule as .mocharc.cjs). */
export function inCI(env: NodeJS.ProcessEnv = process.env): boolean {
  return !!env.CI && !/^(0|false)$/i.test(env.CI);
}

/**
 * For a suite's `before` hook: the corpus, or — without it — every test of the suite skipped with the
 * reason in its title (the one line a reader sees). In CI the corpus must be there: a clear error instead.
 */
export function corpusOrSkip(ctx: Mocha.Context): Corpus {
  const found = findCorpus();
  if (found.corpus) return found.corpus;
  if (inCI()) throw new Error(`The page corpus is required in CI: ${found.reason}.`);
  for (const t of ctx.test?.parent?.tests ?? []) t.title += ` (skipped: ${found.reason})`;
  ctx.skip();
}
