// ESLint for the TypeScript sources (npm run lint, part of npm test). Syntax rules only (no type information,
// so it runs in seconds): the recommended sets, fitted to the project's style where it differs on purpose.
import { readFileSync } from 'node:fs';
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import tseslint from 'typescript-eslint';
import ignoredErrors from './scripts/eslint/ignoredErrors.mjs';

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
  {
    // An error dropped on purpose goes through ignore() with its reason (scripts/eslint/ignoredErrors.mjs), in the
    // shipped code. Tests, benches and the Chrome extension (its own project, without src/base/) are not held to it.
    files: ['src/**/*.ts'],
    plugins: { house: { rules: { 'ignored-errors': ignoredErrors } } },
    rules: { 'house/ignored-errors': 'error' },
  },
  // The formatter (npm run format = eslint --fix; npm run lint checks it): whitespace and punctuation as the code
  // is written, not a reprint. Prettier rewrote 124-184 of 282 files at any print width, so @stylistic it is.
  { ...stylistic.configs.customize({ indent: 2, quotes: 'single', semi: true, commaDangle: 'always-multiline', braceStyle: '1tbs', arrowParens: true, quoteProps: 'as-needed', jsx: false }), files: ['**/*.ts'] },
  {
    files: ['**/*.ts'],
    rules: {
      // Short related statements share a line, lists fill the line, `+` and `&&` end the line they continue,
      // `a && b || c` reads without parentheses: the house style, which these rules of the preset would undo.
      '@stylistic/max-statements-per-line': 'off',
      '@stylistic/list-style': 'off',
      '@stylistic/operator-linebreak': 'off',
      '@stylistic/no-mixed-operators': 'off',
      '@stylistic/multiline-ternary': 'off',
      '@stylistic/indent-binary-ops': 'off',
      // The preset's indent, and two layouts of the house it would reflow: a one-statement loop over tests
      // (`for (const t of …)` and `it(…)` below it at the same depth), and object members of a multi-line union.
      '@stylistic/indent': ['error', 2, { ...stylistic.configs.customize({ jsx: false }).rules['@stylistic/indent'][2], ignoredNodes: ['TSUnionType', 'TSIntersectionType', 'TSUnionType TSTypeLiteral', 'ForOfStatement > ExpressionStatement.body', 'ForOfStatement > ForOfStatement.body', 'ForStatement > ExpressionStatement.body', 'ForInStatement > ExpressionStatement.body'] }],
      // "it's" stays in double quotes rather than 'it\'s'.
      '@stylistic/quotes': ['error', 'single', { allowTemplateLiterals: 'always', avoidEscape: true }],
      // Measured (issue 29): lines over 120/160/180/200 characters, strings and templates aside: 520/84/42/12.
      // Messages and page text stay on one line to be found by grep, so strings, templates, URLs and regexes do not count.
      '@stylistic/max-len': ['error', { code: 200, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true }],
    },
  },
  ...layerRules(),
);
