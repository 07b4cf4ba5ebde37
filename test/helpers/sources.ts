import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The repository's src/ folder, from a built test (out/test/<suite>/x.test.js). */
export const SRC = join(__dirname, '..', '..', '..', 'src');

/** Every TypeScript file of src/: its path below src/ ('/'-separated) and its text, comments removed. */
export function sourceFiles(): { path: string; code: string }[] {
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : []));
  return walk(SRC).map((f) => ({ path: relative(SRC, f).split('\\').join('/'), code: readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|(?<![:'"`])\/\/.*$/gm, '') }));
}
