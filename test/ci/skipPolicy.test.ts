import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusOrSkip, findCorpus, inCI } from '../helpers/corpus';

const root = join(__dirname, '..', '..', '..');
const MOCHA = join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
const SKIPS = join('test', 'fixtures', 'ci', 'skips.spec.cjs');

/** Runs mocha with the repository's .mocharc.cjs on the given files, with CI set or unset. */
function mocha(files: string[], ci: string | undefined) {
  const env = { ...process.env };
  delete env.CI;
  if (ci !== undefined) env.CI = ci;
  const r = spawnSync(process.execPath, [MOCHA, '--reporter', 'spec', '--no-color', ...files], { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('CI skip policy: a skipped test fails the run under CI', function () {
  this.timeout(60_000);

  it('without CI, skips are reported as pending and the run passes', () => {
    const r = mocha([SKIPS], undefined);
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, /1 passing/);
    assert.match(r.out, /2 pending/);
  });

  for (const ci of ['true', '1']) {
    it(`with CI=${ci}, each skipped test is a failure and the run fails`, () => {
      const r = mocha([SKIPS], ci);
      assert.notEqual(r.status, 0, r.out);
      assert.match(r.out, /1 passing/);
      assert.match(r.out, /2 failing/);
      assert.match(r.out, /Pending test forbidden/);
    });
  }

  it('CI=false or CI=0 is not CI', () => {
    for (const ci of ['false', '0', '']) assert.equal(mocha([SKIPS], ci).status, 0, `CI=${ci}`);
    assert.equal(inCI({ CI: 'false' }), false);
    assert.equal(inCI({ CI: 'true' }), true);
    assert.equal(inCI({}), false);
  });

  it('files named on the command line replace the default spec (only they run)', () => {
    const r = mocha([SKIPS], undefined);
    // The default spec would add every built test file; only the fixture's three tests ran.
    assert.doesNotMatch(r.out, /snapshot|README/);
    assert.match(r.out, /fixture: a suite that skips/);
  });
});

describe('corpus helper: finds the shared corpus or says why not', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'ba-corpus-'));
    // <dir>/shared/corpus/pages with two pages, and a checkout two levels below <dir>.
    mkdirSync(join(dir, 'shared', 'corpus', 'pages'), { recursive: true });
    for (const p of ['b.html', 'a.html', 'notes.txt']) writeFileSync(join(dir, 'shared', 'corpus', 'pages', p), '<p>x</p>');
    mkdirSync(join(dir, 'wt', 'tests', 'out'), { recursive: true });
    mkdirSync(join(dir, 'empty'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('finds shared/corpus in a parent folder (a worktree has no ../shared beside it)', () => {
    const found = findCorpus({}, join(dir, 'wt', 'tests', 'out'));
    assert.equal(found.corpus?.dir, join(dir, 'shared', 'corpus', 'pages'));
    assert.deepEqual(found.corpus?.pages, ['a.html', 'b.html']);
  });

  it('BROWSER_AGENT_CORPUS names the corpus folder or its pages folder, and wins over the search', () => {
    for (const v of [join(dir, 'shared', 'corpus'), join(dir, 'shared', 'corpus', 'pages')]) {
      assert.equal(findCorpus({ BROWSER_AGENT_CORPUS: v }, join(dir, 'empty')).corpus?.dir, join(dir, 'shared', 'corpus', 'pages'));
    }
    const wrong = findCorpus({ BROWSER_AGENT_CORPUS: join(dir, 'missing') }, join(dir, 'wt', 'tests', 'out'));
    assert.equal(wrong.corpus, undefined, 'a wrong explicit path is not replaced by the search');
    assert.match(wrong.reason!, /BROWSER_AGENT_CORPUS=.*missing is not a folder/);
    assert.match(findCorpus({ BROWSER_AGENT_CORPUS: join(dir, 'empty') }).reason!, /holds no \.html pages/);
  });

  it('without a corpus: a one-line reason naming both ways to provide it', () => {
    const lone = mkdtempSync(join(tmpdir(), 'ba-no-corpus-'));
    const r = findCorpus({}, lone, lone);
    rmSync(lone, { recursive: true });
    assert.equal(r.corpus, undefined);
    assert.match(r.reason!, /^no page corpus found \(set BROWSER_AGENT_CORPUS .* \.\.\/shared\/corpus\)$/);
  });

  it('corpusOrSkip skips with the reason in each title, and throws under CI', () => {
    const saved = { CI: process.env.CI, C: process.env.BROWSER_AGENT_CORPUS };
    const tests = [{ title: 'reads pages' }];
    let skipped = false;
    const ctx = { test: { parent: { tests } }, skip: () => { skipped = true; throw new Error('skip'); } } as unknown as Mocha.Context;
    try {
      process.env.BROWSER_AGENT_CORPUS = join(dir, 'missing');
      delete process.env.CI;
      assert.throws(() => corpusOrSkip(ctx), /skip/);
      assert.equal(skipped, true);
      assert.match(tests[0].title, /^reads pages \(skipped: BROWSER_AGENT_CORPUS=.*missing is not a folder\)$/);
      process.env.CI = 'true';
      assert.throws(() => corpusOrSkip(ctx), /The page corpus is required in CI: BROWSER_AGENT_CORPUS=/);
    } finally {
      for (const [k, v] of [['CI', saved.CI], ['BROWSER_AGENT_CORPUS', saved.C]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});
