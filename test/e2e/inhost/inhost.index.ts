// Entry of the in-host suite: VS Code loads this file in the extension host (extensionTestsPath) and
// calls run(); a rejection makes the host exit with code 1, which the runner reports as a failure.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  // The spec reporter writes through console.log, which the host forwards to the test page.
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', color: false, timeout: 90_000, slow: 5_000 });
  const grep = process.env.BA_E2E_GREP;
  if (grep) mocha.grep(grep);
  for (const f of readdirSync(__dirname).filter((n) => n.endsWith('.suite.js')).sort()) mocha.addFile(join(__dirname, f));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures ? reject(new Error(`${failures} in-host test(s) failed`)) : resolve()));
  });
}
