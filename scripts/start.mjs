#!/usr/bin/env node
// `npm start`: build, then open VS Code with this extension in development mode. Without a `code` command
// on PATH (e.g. on a server), say how to run it instead.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
execFileSync(process.execPath, ['esbuild.mjs'], { cwd: repo, stdio: 'inherit' });

const codeCli = ['code', 'code-insiders', 'codium'].find((c) => spawnSync(c, ['--version'], { stdio: 'ignore' }).status === 0);
if (codeCli) {
  const args = [`--extensionDevelopmentPath=${repo}`, ...process.argv.slice(2)];
  console.log(`Opening ${codeCli} ${args.join(' ')}`);
  spawn(codeCli, args, { stdio: 'inherit', detached: true }).unref();
} else {
  const cache = process.env.BROWSER_AGENT_E2E_CACHE || join(process.env.XDG_CACHE_HOME || join(process.env.HOME || '~', '.cache'), 'browser-agent-e2e');
  const haveCodeServer = existsSync(join(cache, 'code-server-4.139.1-node24', '.complete'));
  console.log(`Built dist/extension.js. No \`code\` command was found on PATH, so VS Code was not opened.

Ways to run the extension:
  • Desktop VS Code: install it, enable "Shell Command: Install 'code' command in PATH", then run \`npm start\` again
    (it runs: code --extensionDevelopmentPath=${repo}).
  • Install the package into any VS Code / code-server:
      npm run package          # → dist/browser-agent.vsix
      code --install-extension dist/browser-agent.vsix
  • Without desktop VS Code, in code-server (a real VS Code extension host, used in a browser):
      ${haveCodeServer ? '# the e2e cache already has code-server:' : '# run `npm run test:e2e` once to put code-server into the cache, then:'}
      CS="${join(cache, 'node24/node_modules/node/bin/node')} ${join(cache, 'code-server-4.139.1-node24/node_modules/code-server/out/node/entry.js')}"
      npm run package && $CS --install-extension dist/browser-agent.vsix
      $CS --auth none --bind-addr 127.0.0.1:8080 --disable-workspace-trust ${repo}   # then open http://127.0.0.1:8080
  See docs/e2e.md for details.`);
}
