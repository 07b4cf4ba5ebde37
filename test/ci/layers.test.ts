import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkLayers, layoutBlock, readRules } from '../../scripts/check-layers';

const root = join(__dirname, '..', '..', '..');
const rules = readRules(root);

describe('layers: src/ imports only downward (src/layers.json)', () => {
  it('has no upward import, no folder importing an unlisted one and no import cycle', () => {
    assert.deepEqual(checkLayers(join(root, 'src'), rules), []);
  });

  describe('fails on a deliberately broken copy', () => {
    let src: string;
    beforeEach(() => {
      src = join(mkdtempSync(join(tmpdir(), 'ba-layers-')), 'src');
      cpSync(join(root, 'src'), src, { recursive: true });
    });
    afterEach(() => rmSync(join(src, '..'), { recursive: true, force: true }));

    it('an upward import (a type-only one counts)', () => {
      appendFileSync(join(src, 'session', 'tab.ts'), "\nimport type { Rating } from '../contract/decision';\n");
      const problems = checkLayers(src, rules);
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0], /^src\/session\/tab\.ts imports src\/contract\/decision\.ts: contract is above session/);
    });

    it('a dynamic import and an export … from count too', () => {
      appendFileSync(join(src, 'base', 'errors.ts'), "\nexport const later = () => import('../vscode/log');\nexport { unfence } from '../vscode/chat/transcript';\n");
      assert.equal(checkLayers(src, rules).filter((p) => p.startsWith('src/base/errors.ts imports src/vscode/')).length, 2);
    });

    it('two files importing each other', () => {
      appendFileSync(join(src, 'base', 'unfence.ts'), "\nimport './untrusted';\n");
      appendFileSync(join(src, 'base', 'untrusted.ts'), "\nimport './unfence';\n");
      assert.deepEqual(checkLayers(src, rules), ['import cycle: src/base/unfence.ts → src/base/untrusted.ts']);
    });

    it('a folder in no layer, and a rule naming a layer above', () => {
      cpSync(join(src, 'base'), join(src, 'helpers'), { recursive: true });
      const bad = { ...rules, layers: rules.layers.map((l) => (l.folder === 'session' ? { ...l, uses: [...l.uses, 'vscode'] } : l)) };
      const problems = checkLayers(src, bad);
      assert.ok(problems.includes('src/helpers/ is in no layer: add it to src/layers.json'), problems.join('\n'));
      assert.ok(problems.includes('src/layers.json: session uses vscode, which is not a layer listed above it'), problems.join('\n'));
    });
  });

  it("CONTRIBUTING.md's Layout section is the rule file's", () => {
    const readme = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
    const block = /## Layout\n\n```\n([\s\S]*?)\n```/.exec(readme)?.[1];
    if (process.env.BA_WRITE_LAYOUT && block !== undefined) return writeFileSync(join(root, 'CONTRIBUTING.md'), readme.replace(block, layoutBlock(rules)));
    assert.equal(block, layoutBlock(rules), 'CONTRIBUTING.md ## Layout differs from src/layers.json: run BA_WRITE_LAYOUT=1 npx mocha test/ci/layers.test.ts');
  });
});
