// Runs mocha suite files in this process and returns their counts (the UI suite; the unit test of the
// e2e verdict runs its fixture suite through the same function).
import { createRequire } from 'node:module';
import { countRun } from './verdict.mjs';

const require = createRequire(import.meta.url);

/** files: absolute paths. Resolves with { passed, failed, skipped, skippedTitles }. */
export function runMochaFiles(files, { grep, timeout = 120_000, slow = 10_000, reporter = 'spec' } = {}) {
  const mochaModule = require('mocha');
  const Mocha = mochaModule.default ?? mochaModule.Mocha ?? mochaModule;
  const mocha = new Mocha({ ui: 'bdd', reporter, timeout, slow });
  if (grep) mocha.grep(grep);
  for (const f of files) mocha.addFile(f);
  return new Promise((resolve) => {
    let counts;
    const runner = mocha.run(() => {
      mocha.dispose();
      resolve(counts);
    });
    counts = countRun(runner);
  });
}
