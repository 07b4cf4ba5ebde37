// ESLint for the TypeScript sources (npm run lint, part of npm test). Syntax rules only (no type information,
// so it runs in seconds): the recommended sets, fitted to the project's style where it differs on purpose.
// Import layers are not here: scripts/check-layers.ts checks them against src/layers.json (folder cycles and
// file cycles included, which eslint's import rules do not see without a resolver).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
    // In-page code, being moved into src/page/ (issue 29): its comma sequences and one unused constant are
    // left to that move; turn these back on once it lands.
    files: ['src/snapshot/page/**/*.ts', 'src/page/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-expressions': 'off',
      '@typescript-eslint/no-unused-vars': 'off',
    },
  },
);
