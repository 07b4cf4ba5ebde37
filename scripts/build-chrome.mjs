// Builds the companion Chrome extension (chrome-extension/) into dist/chrome-extension/ with esbuild;
// `--zip` also writes dist/browser-agent-chrome.zip for "Load unpacked" or the Chrome Web Store.
import * as esbuild from 'esbuild';
import { copyFileSync, createWriteStream, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'chrome-extension');
export const OUT = join(root, 'dist', 'chrome-extension');
export const ZIP = join(root, 'dist', 'browser-agent-chrome.zip');

export async function buildChrome({ production = false } = {}) {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(join(OUT, 'icons'), { recursive: true });
  await esbuild.build({
    entryPoints: { worker: join(src, 'src', 'worker.ts'), panel: join(src, 'src', 'panel.ts') },
    outdir: OUT,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome125',
    minify: production,
    sourcemap: production ? false : 'inline',
    logLevel: 'warning',
  });
  // The manifest's version follows the VS Code extension's.
  const manifest = JSON.parse(readFileSync(join(src, 'manifest.json'), 'utf8'));
  manifest.version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  const { writeFileSync } = await import('node:fs');
  writeFileSync(join(OUT, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const f of ['panel.html', 'panel.css']) copyFileSync(join(src, 'src', f), join(OUT, f));
  copyFileSync(join(src, 'icons', 'icon128.png'), join(OUT, 'icons', 'icon128.png'));
  return OUT;
}

function files(dir) {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
}

export async function zipChrome() {
  const { ZipFile } = (await import('yazl')).default;
  const zip = new ZipFile();
  for (const f of files(OUT).sort()) zip.addFile(f, relative(OUT, f).split('\\').join('/'));
  zip.end();
  await new Promise((resolve, reject) => zip.outputStream.pipe(createWriteStream(ZIP)).on('close', resolve).on('error', reject));
  return ZIP;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const production = process.argv.includes('--zip');
  await buildChrome({ production });
  if (production) console.log(`${relative(root, await zipChrome())} (${statSync(ZIP).size} bytes)`);
  else console.log(relative(root, OUT));
}
