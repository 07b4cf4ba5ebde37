import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { checkPageCode, isPageCode } from '../../scripts/check-page-code';
import hitFns from '../../src/page/hit.ts?pagefn';
import pointerFns from '../../src/page/actions/pointer.ts?pagefn';
import { pageCall, pageFns } from '../../src/page/fn';

const root = join(__dirname, '..', '..', '..');

describe('page code: all of it in src/page/, typed and bundled (scripts/check-page-code.ts)', () => {
  it('no file outside src/page/ writes page code in a string', () => {
    assert.deepEqual(checkPageCode(join(root, 'src')), []);
  });

  describe('fails on a deliberately broken copy', () => {
    let src: string;
    beforeEach(() => {
      src = join(mkdtempSync(join(tmpdir(), 'ba-pagecode-')), 'src');
      cpSync(join(root, 'src'), src, { recursive: true });
    });
    afterEach(() => rmSync(join(src, '..'), { recursive: true, force: true }));

    it('a function in a template string, wherever it is sent from', () => {
      appendFileSync(join(src, 'actions', 'click.ts'), '\nexport const REMOVE = `(el) => {\n  el.remove();\n}`;\n');
      const problems = checkPageCode(src);
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0], /^src\/actions\/click\.ts:\d+: page code in a string: "\(el\) => \{\\n  el\.remove\(\);\\n\}"/);
    });

    it('a literal at a CDP sink, and in the code argument of the helpers that send it', () => {
      appendFileSync(
        join(src, 'actions', 'wait.ts'),
        [
          '',
          "export const title = (s: Scope) => s.page.send('Runtime.evaluate', { expression: 'document.title', returnByValue: true });",
          "export const gone = (h: ElementHandle) => callOnElement(h, 'el => el.remove()');",
          'export const count = (tab: Tab, f: FrameRef) => evalInFrame(tab, f, `S.count(${1})`);',
          '',
        ].join('\n'),
      );
      const problems = checkPageCode(src).filter((p) => p.startsWith('src/actions/wait.ts'));
      assert.ok(problems.some((p) => /the expression of Runtime\.evaluate is written here as a string/.test(p)), problems.join('\n'));
      assert.ok(problems.some((p) => /the code callOnElement sends is written here as a string/.test(p)), problems.join('\n'));
      assert.ok(problems.some((p) => /the code evalInFrame sends is written here as a string/.test(p)), problems.join('\n'));
    });

    it('passes what is not page code: values at a sink, data to pageCall, prose, selectors, and src/page/ itself', () => {
      appendFileSync(
        join(src, 'actions', 'wait.ts'),
        [
          '',
          "export const probe = (s: Scope) => s.page.send('Runtime.evaluate', { expression: '0', returnByValue: true });",
          'export const note = (n: number) => `Skills (${n})`;',
          "export const sel = 'a[href]:not([hidden]) > span:nth-of-type(2)';",
          '',
        ].join('\n'),
      );
      writeFileSync(join(src, 'page', 'extra.ts'), 'export const inPage = `(el) => el.remove()`;\n');
      assert.deepEqual(checkPageCode(src), []);
    });
  });

  it('tells page code from prose', () => {
    for (const code of ['(el) => el.isConnected', 'function () { return this(); }', 'document.body.innerText.includes("x")', 'globalThis.__baSnap.summary()']) assert.equal(isPageCode(code), true, code);
    for (const text of ['Skills (3)', 'Click the button (the blue one).', 'browser_drag (from)', 'page.locator("#go")', 'example.com/path?q=(1)']) assert.equal(isPageCode(text), false, text);
  });

  it('?pagefn gives each exported function as a self-contained expression of it (no helpers, no globals)', () => {
    for (const [name, src] of Object.entries({ ...hitFns, ...pointerFns })) {
      // Evaluated where nothing is defined: defining the function must need nothing from outside.
      assert.equal(runInNewContext(`typeof ${src}`, Object.create(null)), 'function', name);
    }
    assert.ok(pointerFns.checkActionable.includes('elementFromPoint'), 'the hit test is bundled into the functions that use it');
    const hit = pageFns<typeof import('../../src/page/hit')>(hitFns);
    assert.equal(pageCall(hit.boxOf, '#a'), `(${hitFns.boxOf})("#a")`);
  });
});
