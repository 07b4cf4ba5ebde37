// Entry of the in-host suite: VS Code loads this file in the extension host (extensionTestsPath) and
// calls run(); a rejection makes the host exit with code 1, which the runner reports as a failure.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';
import { countRun } from '../host/verdict.mjs';
import { LOG_PREFIX } from './extension';

export function run(): Promise<void> {
  // The spec reporter writes through Base.consoleLog; the host forwards console output to the page unformatted
  // and mixed with the workbench's own logs, so format it here and tag it for the runner to pick out.
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => console.log(LOG_PREFIX + format(...args));
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', color: false, timeout: 90_000, slow: 5_000 });
  const grep = process.env.BA_E2E_GREP;
  if (grep) mocha.grep(grep);
  for (const f of readdirSync(__dirname).filter((n) => n.endsWith('.suite.js')).sort()) mocha.addFile(join(__dirname, f));
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      // The runner's verdict needs passed/failed/skipped, not just the exit code (run.mjs reads this file).
      const results = process.env.BA_E2E_RESULTS;
      if (results) writeFileSync(join(results, 'inhost-counts.json'), JSON.stringify(counts));
      if (failures) reject(new Error(`${failures} in-host test(s) failed`));
      else resolve();
    });
    const counts = countRun(runner);
  });
}
