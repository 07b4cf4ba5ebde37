// Installs a real browserless server (the open-source remote-browser engine) once, into a cache outside the
// repo, for the fleet suite: ~580 MB and 0.5–2 minutes the first time, nothing after. It runs on the e2e host's
// Node 24 (its `engines`), installed without its scripts (they would download browsers); its Chromium routes
// launch the machine's Chromium (start-browserless.mjs). See ../shared/browserless-host.md and docs/fleets.md.
// `node test/fleet/engine/install.mjs` installs it ahead of a run.
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ensureNode, installInto, withInstallLock, withoutOuterNpm } from '../../e2e/host/install.mjs';

export const BROWSERLESS_VERSION = '2.42.0';

export function browserlessCacheRoot() {
  return process.env.BROWSER_AGENT_BROWSERLESS_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'browser-agent-browserless');
}

/** Paths of a completed install (installInto writes `.complete` last, so a killed install is redone). */
export function browserlessPaths(root = browserlessCacheRoot()) {
  const dir = join(root, `browserless-${BROWSERLESS_VERSION}`);
  return {
    root,
    dir,
    entry: join(dir, 'node_modules', '@browserless.io', 'browserless', 'build', 'exports.js'),
    /** PLAYWRIGHT_BROWSERS_PATH: where playwright-core looks for the Chromium it launches. */
    browsersPath: join(root, 'playwright-browsers'),
  };
}

/** Node 24 and browserless, installing what the caches lack; returns their paths. */
export async function ensureBrowserless({ log = () => {} } = {}) {
  const node = await ensureNode({ log });
  const p = browserlessPaths();
  mkdirSync(p.root, { recursive: true });
  if (!existsSync(join(p.dir, '.complete'))) {
    await withInstallLock(p.root, log, async () => {
      const started = Date.now();
      const env = { ...withoutOuterNpm(process.env), PATH: join(node.nodeDir, 'node_modules', 'node', 'bin') + delimiter + process.env.PATH };
      if (await installInto(p.dir, ['--ignore-scripts', `@browserless.io/browserless@${BROWSERLESS_VERSION}`], env, 15 * 60_000, null)) {
        log(`installed browserless ${BROWSERLESS_VERSION} into ${p.dir} in ${((Date.now() - started) / 1000).toFixed(1)}s\n`);
      }
    });
  }
  if (!existsSync(p.entry)) throw new Error(`the browserless install at ${p.dir} is incomplete (no ${p.entry}); delete it and run again`);
  return { nodeBin: node.nodeBin, ...p };
}

// Run as a script (not bundled into a test, where import.meta is empty): install now.
if (/[\\/]test[\\/]fleet[\\/]engine[\\/]install\.mjs$/.test(process.argv[1] ?? '')) {
  ensureBrowserless({ log: (s) => process.stdout.write(s) }).then(
    (p) => process.stdout.write(`browserless ${BROWSERLESS_VERSION} ready in ${p.dir} (Node ${p.nodeBin})\n`),
    (e) => {
      console.error(e.message);
      process.exit(1);
    },
  );
}
