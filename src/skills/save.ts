import { promises as fs } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * Writes `<dir>/<slug>/SKILL.md`, never over an existing skill (`slug-2`, `slug-3`…), its front matter's `name`
 * always its folder's (VS Code flags a skill whose name is not). Returns the path.
 */
export async function saveSkillDraft(dir: string, draft: { slug: string; text: string }): Promise<string> {
  for (let n = 1; n < 1000; n++) {
    const folder = join(dir, n === 1 ? draft.slug : `${draft.slug}-${n}`);
    try {
      await fs.mkdir(folder, { recursive: false });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
        await fs.mkdir(dir, { recursive: true });
        n--;
        continue;
      }
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw e;
    }
    const file = join(folder, 'SKILL.md');
    await fs.writeFile(file, draft.text.replace(/^name: .*$/m, `name: ${basename(folder)}`), { flag: 'wx' });
    return file;
  }
  throw new Error(`too many skills named ${draft.slug}`);
}
