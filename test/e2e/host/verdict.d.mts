// Types of verdict.mjs for the TypeScript suites that use it.
export interface SuiteCounts {
  name: string;
  passed: number;
  failed: number;
  skipped: number;
  skippedTitles?: string[];
  error?: string;
}
export function inCI(env?: NodeJS.ProcessEnv): boolean;
export function countRun(runner: Mocha.Runner): Omit<SuiteCounts, 'name' | 'error'> & { skippedTitles: string[] };
export function verdict(suites: SuiteCounts[], opts?: { ci?: boolean; problems?: string[] }): { ok: boolean; reasons: string[]; line: string };
