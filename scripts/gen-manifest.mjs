// Regenerates package.json contributes.languageModelTools (and the #browser tool set snippet) from
// the tool registry, and the browserAgent.safety.* defaults from the policy, so the manifest never
// drifts from the code. `--check` only compares.
import * as esbuild from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const check = process.argv.includes('--check');
const dir = mkdtempSync(join(tmpdir(), 'ba-manifest-'));
try {
  const entry = join(dir, 'entry.ts');
  writeFileSync(entry, `export { allTools } from ${JSON.stringify(join(process.cwd(), 'src/tools/registry.ts'))};\nexport { languageModelToolContributions, toolSetSnippet } from ${JSON.stringify(join(process.cwd(), 'src/vscode/manifest.ts'))};\nexport { DEFAULT_POLICY } from ${JSON.stringify(join(process.cwd(), 'src/safety/settings.ts'))};\n`);
  const out = join(dir, 'manifest.cjs');
  await esbuild.build({
    entryPoints: [entry], outfile: out, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'error',
    external: ['vscode'], nodePaths: [join(process.cwd(), 'node_modules')],
    // In-page scripts are irrelevant to the manifest: stub them instead of bundling them.
    plugins: [{ name: 'inpage-stub', setup(b) {
      b.onResolve({ filter: /\?(inpage|pagefn)$/ }, (a) => ({ path: a.path, namespace: 'stub' }));
      b.onLoad({ filter: /\?inpage$/, namespace: 'stub' }, () => ({ contents: 'export default ""', loader: 'js' }));
      // ?pagefn: an object of function sources, read only when a tool runs.
      b.onLoad({ filter: /\?pagefn$/, namespace: 'stub' }, () => ({ contents: 'export default {}', loader: 'js' }));
    } }],
  });
  const { allTools, languageModelToolContributions, toolSetSnippet, DEFAULT_POLICY } = createRequire(import.meta.url)(out);
  const pkgText = readFileSync('package.json', 'utf8');
  const pkg = JSON.parse(pkgText);
  pkg.contributes.languageModelTools = languageModelToolContributions(allTools);
  // The safety settings' defaults come from the policy's own defaults.
  for (const [key, value] of Object.entries(DEFAULT_POLICY)) {
    const prop = Object.assign({}, ...[pkg.contributes.configuration].flat().map((g) => g.properties))[`browserAgent.safety.${key}`];
    if (prop) prop.default = value;
  }
  const next = `${JSON.stringify(pkg, null, 2)}\n`;
  const snippet = `// Paste into your tool sets file (Chat: Configure Tool Sets) to use #browser in prompts.\n${JSON.stringify(toolSetSnippet(allTools), null, 2)}\n`;
  if (check) {
    if (next !== pkgText) {
      console.error('package.json contributes.languageModelTools is out of date: run npm run gen:manifest');
      process.exit(1);
    }
    console.log(`package.json is up to date (${allTools.length} tools).`);
  } else {
    writeFileSync('package.json', next);
    mkdirSync('resources', { recursive: true });
    writeFileSync('resources/browser.toolsets.jsonc', snippet);
    console.log(`Wrote ${allTools.length} languageModelTools to package.json and resources/browser.toolsets.jsonc.`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
