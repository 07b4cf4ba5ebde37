import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

describe('README: the front door lists everything a user can reach', () => {
  it('names every command of the palette', () => {
    const hidden = new Set((pkg.contributes.menus?.commandPalette ?? []).filter((m: any) => m.when === 'false').map((m: any) => m.command));
    const missing = pkg.contributes.commands.filter((c: any) => !hidden.has(c.command) && !readme.includes(`${c.category}: ${c.title}`));
    assert.deepEqual(missing.map((c: any) => c.title), []);
  });

  it('names every setting', () => {
    const missing = pkg.contributes.configuration.flatMap((g: any) => Object.keys(g.properties)).filter((k: string) => !readme.includes(`\`${k}\``));
    assert.deepEqual(missing, []);
  });

  it('gives the two set-up commands and the test command CI runs', () => {
    assert.match(readme, /npm install\nnpm test/);
    assert.match(readFileSync(join(root, '.ci', 'run'), 'utf8'), /\nnpm test\n/);
  });
});

describe('docs: every repository path the README and docs name exists', () => {
  it('has no stale paths', () => {
    const files = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const stale: string[] = [];
    for (const f of files) {
      const text = readFileSync(join(root, f), 'utf8');
      // Paths inside the repository, as written in prose or code spans: src/…, test/…, docs/x.md, …
      for (const m of text.matchAll(/(?<![\w./-])((?:src|test|docs|bench|scripts|media|resources|\.ci)\/[\w./-]*\w)/g)) {
        const p = m[1];
        if (/[*{}<>]/.test(p) || p.includes('…')) continue; // globs and placeholders
        if (!existsSync(join(root, p))) stale.push(`${f}: ${p}`);
      }
    }
    assert.deepEqual(stale, []);
  });
});
