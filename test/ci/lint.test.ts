// The lint rules do what eslint.config.mjs says: the layers of src/layers.json marked in the editor, the editor's
// API only in src/vscode/, and a few of the house rules. (npm run lint runs them over the tree.)
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const root = join(__dirname, '..', '..', '..');

describe('lint: eslint.config.mjs', function () {
  this.timeout(60_000);
  const eslint = new ESLint({ cwd: root });
  const problems = async (file: string, code: string) => {
    const [r] = await eslint.lintText(code, { filePath: join(root, file) });
    return r.messages.map((m) => `${m.ruleId}: ${m.message}`);
  };

  it('an upward import is marked, from a file at any depth; a downward one is not', async () => {
    const up = await problems('src/session/probe.ts', "import type { Rating } from '../contract/decision';\nexport type R = Rating;\n");
    assert.equal(up.length, 1, up.join('\n'));
    assert.match(up[0], /^no-restricted-imports: .*src\/session\/ imports only [a-z, ]+ \(src\/layers\.json\)/);
    const deep = await problems('src/vscode/chat/probe.ts', "export { runTool } from '../../runtime/runner';\n");
    assert.deepEqual(deep, [], 'vscode is above runtime');
    const deepUp = await problems('src/page/snapshot/probe.ts', "import { resolveRef } from '../../snapshot';\nexport const e = resolveRef;\n");
    assert.equal(deepUp.length, 1, deepUp.join('\n'));
    assert.deepEqual(await problems('src/tools/probe.ts', "import { BrowserAgentError } from '../base/errors';\nexport const e = BrowserAgentError;\n"), []);
  });

  it('only src/vscode/ imports vscode', async () => {
    const code = "import * as vscode from 'vscode';\nexport const w = vscode.window;\n";
    assert.match((await problems('src/agent/probe.ts', code)).join('\n'), /'vscode' import is restricted/);
    assert.deepEqual(await problems('src/vscode/probe.ts', code), []);
  });

  it('house rules: == only against null; an unused binding only as _name; a bare expression statement', async () => {
    assert.match((await problems('src/base/probe.ts', 'export const f = (a: number) => a == 2;\n')).join('\n'), /eqeqeq/);
    assert.deepEqual(await problems('src/base/probe.ts', 'export const f = (a?: number) => a == null;\n'), []);
    assert.match((await problems('src/base/probe.ts', 'export function f(a: number) { const b = a; }\n')).join('\n'), /no-unused-vars/);
    assert.deepEqual(await problems('src/base/probe.ts', 'export function f(_a: number, b: () => void) { b(); }\n'), []);
    assert.match((await problems('src/base/probe.ts', 'export function f(a: { b: number }) { a.b; }\n')).join('\n'), /no-unused-expressions/);
    assert.deepEqual(await problems('src/base/probe.ts', 'export function f(a: boolean, b: () => void) { a && b(); }\n'), []);
  });

  it('an error is dropped only through ignore(): an empty catch (a comment does not count) and a .catch() that takes no error are marked', async () => {
    const rule = (msgs: string[]) => msgs.filter((m) => m.startsWith('house/ignored-errors'));
    const offenders = [
      'export function f(g: () => void) { try { g(); } catch {} }\n',
      'export function f(g: () => void) { try { g(); } catch { /* gone */ } }\n',
      'export function f(g: () => void) {\n  try {\n    g();\n  } catch (_e) {\n    // best effort\n  }\n}\n',
      'export const f = (p: Promise<number>) => p.catch(() => undefined);\n',
      'export const f = (p: Promise<number>) => p.catch(() => {});\n',
      'export const f = (p: Promise<number[]>) => p.catch(function () { return []; });\n',
    ];
    for (const code of offenders) {
      const found = rule(await problems('src/actions/probe.ts', code));
      assert.equal(found.length, 1, code);
      assert.match(found[0], /ignore\(e, 'why'\) from src\/base\/ignore\.ts/);
    }
    const named = "import { ignore } from '../base/ignore';\n";
    const fine = [
      `${named}export function f(g: () => void) { try { g(); } catch (e) { ignore(e, 'the frame may be gone'); } }\n`,
      `${named}export const f = (p: Promise<boolean>) => p.catch((e) => ignore(e, 'unread counts as not selected', false));\n`,
      // Catches that handle the error are not dropped errors.
      'export function f(g: () => void) { try { g(); } catch (e) { throw new Error(`wrapped: ${e}`); } }\n',
      'export function f(g: () => void): boolean { try { g(); return true; } catch { return false; } }\n',
      'export const f = (p: Promise<number>) => p.catch((e) => { console.error(e); return 0; });\n',
    ];
    for (const code of fine) assert.deepEqual(rule(await problems('src/actions/probe.ts', code)), [], code);
    // In-page code has its own trace-free twin (src/page/ignore.ts); tests are not held to the rule.
    assert.equal(rule(await problems('src/page/probe.ts', offenders[0])).length, 1);
    assert.deepEqual(rule(await problems('test/actions/probe.test.ts', offenders[0])), []);
  });

  it('the formatter (@stylistic) holds the house style: marks what differs, leaves one-line statements and long messages alone', async () => {
    const style = async (code: string) => (await problems('src/base/probe.ts', code)).filter((m) => m.startsWith('@stylistic/'));
    assert.match((await style('export const a = "x";\n')).join('\n'), /@stylistic\/quotes/);
    assert.match((await style('export function f() {\n    return 1;\n}\n')).join('\n'), /@stylistic\/indent/);
    assert.match((await style('export const a = 1\n')).join('\n'), /@stylistic\/semi/);
    assert.match((await style('export const a = {\n  b: 1\n};\n')).join('\n'), /@stylistic\/comma-dangle/);
    assert.match((await style(`export const a = [${'1, '.repeat(70)}1];\n`)).join('\n'), /@stylistic\/max-len/);
    const house = [
      'export const f = (a: number, b: () => void) => { if (a > 1) b(); else { b(); b(); } };\n',
      `export const m = (n: string) => \`${'a long message for the model that stays on one line to be found by grep; '.repeat(4)}\${n}\`;\n`,
      "export const s = \"it's\";\n",
    ];
    for (const code of house) assert.deepEqual(await style(code), [], code);
  });
});
