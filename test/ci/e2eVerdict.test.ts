import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { verdict } from '../e2e/host/verdict.mjs';

const root = join(__dirname, '..', '..', '..');
const host = (f: string) => pathToFileURL(join(root, 'test', 'e2e', 'host', f)).href;

/** Runs the fixture suite through the e2e runner's own mocha runner in a child process, and its verdict. */
function runFixture(ci: boolean) {
  const script = `
    import { runMochaFiles } from ${JSON.stringify(host('mochaRun.mjs'))};
    import { verdict } from ${JSON.stringify(host('verdict.mjs'))};
    const counts = await runMochaFiles([${JSON.stringify(join(root, 'test', 'fixtures', 'ci', 'skips.spec.cjs'))}], { reporter: 'dot' });
    console.log('RESULT ' + JSON.stringify({ counts, verdict: verdict([{ name: 'UI', ...counts }], { ci: ${ci} }) }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  assert.ok(line, `no result from the child:\n${r.stdout}${r.stderr}`);
  return JSON.parse(line.slice(7));
}

describe('e2e verdict: counts on the last line; no tests, a failure, or a skip under CI fail the run', function () {
  this.timeout(60_000);

  it('counts a real mocha run of a suite that skips (the runner the UI suite uses)', () => {
    const { counts } = runFixture(false);
    assert.equal(counts.passed, 1);
    assert.equal(counts.failed, 0);
    assert.equal(counts.skipped, 2);
    assert.deepEqual(counts.skippedTitles, ['fixture: a suite that skips is skipped statically', 'fixture: a suite that skips skips itself at run time']);
  });

  it('that run passes without CI and fails under CI, naming the skipped tests', () => {
    const local = runFixture(false).verdict;
    assert.equal(local.ok, true, local.reasons.join('; '));
    assert.equal(local.line, 'E2E PASSED: 1 passed, 0 failed, 2 skipped (passed/failed/skipped: UI 1/0/2)');
    const ci = runFixture(true).verdict;
    assert.equal(ci.ok, false);
    assert.match(ci.line, /^E2E FAILED: 1 passed, 0 failed, 2 skipped/);
    assert.match(ci.reasons.join('\n'), /2 test\(s\) skipped under CI, where a skip is a failure: fixture: a suite that skips is skipped statically; /);
  });

  it('fails when no test ran, when one failed, when a suite did not finish, or on a runner problem', () => {
    assert.deepEqual(verdict([], { ci: false }).reasons, ['no test ran']);
    assert.deepEqual(verdict([{ name: 'UI', passed: 0, failed: 0, skipped: 0 }], { ci: false }).reasons, ['no test ran']);
    assert.deepEqual(verdict([{ name: 'UI', passed: 3, failed: 1, skipped: 0 }], { ci: false }).reasons, ['1 test(s) failed']);
    const crashed = verdict([{ name: 'in-host', passed: 2, failed: 0, skipped: 0, error: 'the extension host exited with code 1' }, { name: 'UI', passed: 4, failed: 0, skipped: 0 }], { ci: false });
    assert.equal(crashed.ok, false);
    assert.deepEqual(crashed.reasons, ['in-host: the extension host exited with code 1']);
    assert.equal(crashed.line, 'E2E FAILED: 6 passed, 0 failed, 0 skipped (passed/failed/skipped: in-host 2/0/0, UI 4/0/0)');
    const leaked = verdict([{ name: 'UI', passed: 4, failed: 0, skipped: 0 }], { ci: true, problems: ['1 process(es) of this run outlived the shutdown'] });
    assert.deepEqual(leaked.reasons, ['1 process(es) of this run outlived the shutdown']);
    assert.equal(verdict([{ name: 'UI', passed: 4, failed: 0, skipped: 0 }], { ci: true }).ok, true);
  });
});
