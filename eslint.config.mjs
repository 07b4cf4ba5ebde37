// ESLint for the TypeScript sources (npm run lint, part of npm test). Syntax rules only (no type information,
// so it runs in seconds): the recommended sets, fitted to the project's style where it differs on purpose.
import { readFileSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The import layers of src/layers.json as no-restricted-imports, so an editor marks an import of a folder above
 * (or beside) the file's own as it is typed. The build's check stays scripts/check-layers.ts, which also
 * finds file cycles and folders missing from the rule file. A file `depth` folders below src/<folder>/ reaches
 * another top-level folder through `depth` times `../`.
 */
function layerRules() {
  const { layers } = JSON.parse(readFileSync(new URL('./src/layers.json', import.meta.url), 'utf8'));
  return layers.flatMap(({ folder, uses }) => {
    const barred = layers.map((l) => l.folder).filter((f) => f !== folder && !uses.includes(f));
    // Only src/vscode/ may import the editor's API.
    const paths = folder === 'vscode' ? [] : [{ name: 'vscode', message: 'Code that uses the editor lives in src/vscode/ (CONTRIBUTING.md, Layout).' }];
    return [1, 2, 3, 4].map((depth) => ({
      files: [`src/${folder}/${'*/'.repeat(depth - 1)}*.ts`],
      rules: {
        'no-restricted-imports': ['error', { paths, patterns: barred.length ? [{ regex: `^(\\.\\./){${depth}}(${barred.join('|')})(/|$)`, message: `src/${folder}/ imports only ${uses.join(', ') || 'nothing of src/'} (src/layers.json): move the code down, or pass it in.` }] : [] }],
      },
    }));
  });
}

export default tseslint.config(
  // Build output, and plain JavaScript (build, bench and e2e scripts, checked by running them).
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test-artifacts/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      // TypeScript resolves names itself (and knows Node's and the DOM's globals).
      'no-undef': 'off',
      // CDP messages and parsed JSON are `any` where they enter; the typed client narrows them.
      '@typescript-eslint/no-explicit-any': 'off',
      // Sanitisers match control characters on purpose (file names, headers, the snapshot's markers).
      'no-control-regex': 'off',
      // Flags defensive initial values (before a try block, an endless loop) that cost nothing and keep reads safe.
      'no-useless-assignment': 'off',
      // Expected text with runs of spaces reads better written out than as ` {2}`.
      'no-regex-spaces': 'off',
      // `_name`: unused on purpose (a parameter kept for its position, a property split off a rest).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // `a && b()` and `c ? d() : e()` as statements are the house style; a bare value is a forgotten call.
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      // A `let` read by a closure before its one assignment cannot be a const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      eqeqeq: ['error', 'smart'],
    },
  },
  ...layerRules(),
);
