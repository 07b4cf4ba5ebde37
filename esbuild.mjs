// One build for everything: the extension, the MCP server bin, the in-page scripts (inlined as
// strings through the `?inpage` import suffix) and the tests (so tests run exactly what ships).
import * as esbuild from 'esbuild';
import { existsSync, readdirSync, readFileSync, statSync, chmodSync, mkdirSync, copyFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { buildChrome } from './scripts/build-chrome.mjs';

const watch = process.argv.includes('--watch');
// --production (npm run package, via vscode:prepublish): minified, no source maps, so no dangling
// sourceMappingURL comments in the .vsix.
const production = process.argv.includes('--production');

/** `import src from './page/extractor.ts?inpage'` → the file bundled as an IIFE, as a string. */
const inpagePlugin = {
  name: 'inpage',
  setup(build) {
    build.onResolve({ filter: /\?inpage$/ }, (args) => ({
      path: join(args.resolveDir, args.path.replace(/\?inpage$/, '')),
      namespace: 'inpage',
    }));
    build.onLoad({ filter: /.*/, namespace: 'inpage' }, async (args) => {
      const out = await esbuild.build({
        entryPoints: [args.path],
        bundle: true,
        write: false,
        format: 'iife',
        platform: 'browser',
        target: 'chrome110',
        // BA_INPAGE_READABLE=1: keep function names, for profiling the extractor (npm run bench:bigpage).
        minify: !process.env.BA_INPAGE_READABLE,
        legalComments: 'none',
      });
      return { contents: `export default ${JSON.stringify(out.outputFiles[0].text)};`, loader: 'js', watchFiles: [args.path] };
    });
  },
};

/**
 * `import fns from '../page/actions/hit.ts?pagefn'` → an object of strings, one per exported function of the
 * file: each is an expression whose value is that function, bundled with only what it uses (tree-shaken), for
 * `functionDeclaration` (Runtime.callFunctionOn) or `(${fn})(args)` in an expression (Runtime.evaluate).
 * No runtime helpers and no globals: the code may run in the page's main world, among the page's scripts.
 */
const pagefnCache = new Map();
const pagefnPlugin = {
  name: 'pagefn',
  setup(build) {
    build.onResolve({ filter: /\?pagefn$/ }, (args) => ({
      path: join(args.resolveDir, args.path.replace(/\?pagefn$/, '')),
      namespace: 'pagefn',
    }));
    build.onLoad({ filter: /.*/, namespace: 'pagefn' }, async (args) => {
      // Every build of this run imports the same page files: bundle each once while its inputs stay unchanged.
      const hit = pagefnCache.get(args.path);
      if (hit && hit.watchFiles.every((f) => statSync(f, { throwIfNoEntry: false })?.mtimeMs === hit.mtimes[f])) return hit.result;
      const common = { bundle: true, write: false, format: 'esm', platform: 'browser', target: 'chrome110', minify: !process.env.BA_INPAGE_READABLE, legalComments: 'none' };
      const all = await esbuild.build({ ...common, entryPoints: [args.path], metafile: true });
      const names = Object.values(all.metafile.outputs)[0].exports;
      const watchFiles = Object.keys(all.metafile.inputs).map((f) => resolve(f));
      const fns = {};
      await Promise.all(names.map(async (name) => {
        const one = await esbuild.build({ ...common, stdin: { contents: `export { ${name} as default } from ${JSON.stringify(args.path)};`, resolveDir: dirname(args.path), loader: 'ts' } });
        const code = one.outputFiles[0].text;
        const m = /export\s*\{\s*([\w$]+)\s+as\s+default\s*\};?\s*$/.exec(code);
        if (!m) throw new Error(`${args.path}: export ${name} is not a function declared in the file (?pagefn)`);
        fns[name] = `(()=>{${code.slice(0, m.index)}\nreturn ${m[1]}})()`;
      }));
      const result = { contents: `export default ${JSON.stringify(fns, Object.keys(fns).sort())};`, loader: 'js', watchFiles };
      pagefnCache.set(args.path, { result, watchFiles, mtimes: Object.fromEntries(watchFiles.map((f) => [f, statSync(f).mtimeMs])) });
      return result;
    });
  },
};

/**
 * zod's namespace object keeps all ~50 of its error-message locales in every bundle (≈60 KB each
 * zipped). Tool errors go to models in English, so only `en` (zod's default) is bundled.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]v4[\\/]/.test(args.importer) ? { path: join(args.resolveDir, '..', 'locales', 'index.js'), namespace: 'zod-locales' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({ contents: "export { default as en } from './en.js';", loader: 'js', resolveDir: join(args.path, '..') }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  plugins: [inpagePlugin, pagefnPlugin, zodEnglishOnly],
};

function testEntries(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...testEntries(p));
    else if (/\.test\.ts$/.test(name) || /test[\\/]e2e[\\/].*\.(suite|index)\.ts$/.test(p)) out.push(p);
  }
  return out;
}

const builds = [
  { ...common, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  // The MCP server and the per-user session daemon (started by the MCP server and the extension) share one
  // bundle; dist/mcp.js and dist/daemon.js launch it (LAUNCHERS below).
  { ...common, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js' },
  // The snapshot benchmark (npm run bench:snapshot) runs the shipped extractor, so it is bundled like the tests.
  { ...common, entryPoints: ['bench/snapshot.ts'], outfile: 'out/bench/snapshot.js', packages: 'external' },
  { ...common, entryPoints: ['bench/bigPage.ts'], outfile: 'out/bench/bigPage.js', packages: 'external' },
  { ...common, entryPoints: ['bench/skills/retrieval.ts'], outfile: 'out/bench/skills.js', packages: 'external' },
  { ...common, entryPoints: ['bench/act.ts'], outfile: 'out/bench/act.js', packages: 'external' },
  { ...common, entryPoints: ['bench/hop.ts'], outfile: 'out/bench/hop.js', packages: 'external' },
  { ...common, entryPoints: ['bench/relay.ts'], outfile: 'out/bench/relay.js', packages: 'external' },
  // In a folder of its own: the engine helpers it shares with test/fleet find the repository three levels up.
  { ...common, entryPoints: ['bench/fleet/run.ts'], outfile: 'out/bench/fleet/run.js', packages: 'external' },
  { ...common, entryPoints: ['bench/interception.ts'], outfile: 'out/bench/interception.js', packages: 'external' },
  // The chat panel's webview script (runs in the webview, not in Node).
  { ...common, platform: 'browser', target: 'chrome120', format: 'iife', minify: true, entryPoints: ['media/chat.ts'], outfile: 'dist/media/chat.js' },
  // The editor-area live view's script (the highlight code shared with the chat panel's).
  { ...common, platform: 'browser', target: 'chrome120', format: 'iife', minify: true, entryPoints: ['media/liveView.ts'], outfile: 'dist/media/liveView.js' },
  {
    ...common,
    entryPoints: testEntries('test'),
    outdir: 'out/test',
    outbase: 'test',
    packages: 'external',
    external: ['vscode'],
    // Tests keep readable stack traces whatever the mode; only what ships is minified.
    sourcemap: 'inline',
    minify: false,
  },
];

// Codicons for the webview, served from the extension (no remote resources): only the icons the webview names (a name
// is any quoted lower-case word in media/chat.ts that is an icon), each its SVG as a CSS mask in the text colour, so
// no icon font ships (codicon.ttf alone was 61 KB of the .vsix, which has a size guard: test/vscode/package.test.ts).
mkdirSync('dist/media', { recursive: true });
const ICONS = 'node_modules/@vscode/codicons/src/icons';
const named = [...new Set(readFileSync('media/chat.ts', 'utf8').match(/(?<=['"`])[a-z][a-z0-9-]*(?=['"`\s])/g))].filter((n) => existsSync(`${ICONS}/${n}.svg`)).sort();
const svgUrl = (name) => `url("data:image/svg+xml,${encodeURIComponent(readFileSync(`${ICONS}/${name}.svg`, 'utf8').trim())}")`;
writeFileSync('dist/media/codicon.css', [
  '/* Codicons (MIT, Microsoft: @vscode/codicons), the icons media/chat.ts names, as masks; written by esbuild.mjs. */',
  ".codicon[class*='codicon-'] { display: inline-block; flex: 0 0 auto; width: 16px; height: 16px; vertical-align: text-bottom; background-color: currentColor; -webkit-mask: var(--codicon) no-repeat center / 16px 16px; mask: var(--codicon) no-repeat center / 16px 16px; }",
  '@keyframes codicon-spin { 100% { transform: rotate(360deg); } }',
  '.codicon-modifier-spin { animation: codicon-spin 1.5s steps(30) infinite; }',
  '.codicon-loading { animation-duration: 1s !important; animation-timing-function: cubic-bezier(0.53, 0.21, 0.29, 0.67) !important; }',
  ...named.map((n) => `.codicon-${n} { --codicon: ${svgUrl(n)}; }`),
  '',
].join('\n'));
// browser_run_script's sandbox (QuickJS as WebAssembly, src/sandbox/wasm.ts) loads it beside the bundles.
copyFileSync('node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm', 'dist/quickjs.wasm');

/** The command lines package.json's `bin` names: each runs its part of dist/cli.js. */
const LAUNCHERS = {
  'dist/mcp.js': "#!/usr/bin/env node\n'use strict';\nvoid require('./cli.js').runMcpServer();\n",
  'dist/daemon.js': "#!/usr/bin/env node\n'use strict';\nrequire('./cli.js').runDaemonCli(process.argv.slice(2));\n",
};
for (const [bin, body] of Object.entries(LAUNCHERS)) {
  writeFileSync(bin, body);
  chmodSync(bin, 0o755);
}

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  // The companion Chrome extension (dist/chrome-extension/; the relay tests load it into Chromium).
  await Promise.all([...builds.map((b) => esbuild.build(b)), buildChrome({ production })]);
}
