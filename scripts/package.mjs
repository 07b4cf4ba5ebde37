#!/usr/bin/env node
// `npm run package`: the .vsix, with README.md as its Details page. VS Code shows only https images there, so the
// README's screenshots (relative links to media/screens/, which GitHub shows as they are) need a public https home:
//   BROWSER_AGENT_IMAGES_URL=https://raw.githubusercontent.com/<owner>/<repo>/<tag>/ npm run package [-- -o <file>]
// makes vsce point each relative image at that address. Without it the screenshots block is left out of the packaged
// README (a relative image would show as a broken one, and vsce refuses it without a repository).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const IMAGES_VAR = 'BROWSER_AGENT_IMAGES_URL';
/** The README's screenshots sit between these two lines. */
const SCREENS = /^<!-- screens -->$[\s\S]*?^<!-- \/screens -->$\n?/m;

/** The images' home as vsce wants it (https, ending in a slash), or a clear error. */
export function imagesHome(value) {
  let url;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${IMAGES_VAR} must be an https:// address (the folder that holds media/screens/), not "${value}".`);
  }
  if (url.protocol !== 'https:') throw new Error(`${IMAGES_VAR} must be an https:// address: VS Code's Details page shows no other images (got ${url.protocol}).`);
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

/** The README without its screenshots block, for a package that has no home for them. */
export function readmeWithoutScreens(text) {
  return text.replace(SCREENS, '');
}

/**
 * Packages `cwd` (this repository) into `out` with vsce. `imagesUrl`: where media/screens/ is served over https;
 * without it the screenshots are left out of the Details page.
 */
export function packageExtension({ out, imagesUrl, cwd = repo, stdio = 'inherit' }) {
  const vsce = join(cwd, 'node_modules', '@vscode', 'vsce', 'vsce');
  const args = [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '-o', out];
  // vsce takes the README from inside the folder it packages (it ships it as extension/readme.md).
  const stripped = join(cwd, 'dist', 'README.md');
  if (imagesUrl) args.push('--baseImagesUrl', imagesHome(imagesUrl));
  else {
    mkdirSync(dirname(stripped), { recursive: true });
    writeFileSync(stripped, readmeWithoutScreens(readFileSync(join(cwd, 'README.md'), 'utf8')));
    args.push('--readme-path', 'dist/README.md');
  }
  try {
    execFileSync(process.execPath, args, { cwd, stdio });
  } finally {
    rmSync(stripped, { force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const imagesUrl = process.env[IMAGES_VAR] || undefined;
  try {
    if (imagesUrl) imagesHome(imagesUrl);
  } catch (e) {
    console.error(e.message);
    process.exit(2);
  }
  if (!imagesUrl) console.log(`${IMAGES_VAR} is not set: the Details page is packaged without the README's screenshots (see CONTRIBUTING.md, "Packaging and the Details page").`);
  const o = process.argv.indexOf('-o');
  packageExtension({ out: o > 0 && process.argv[o + 1] ? resolve(process.argv[o + 1]) : join(repo, 'dist', 'browser-agent.vsix'), imagesUrl });
}
