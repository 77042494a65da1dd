// One lint for the whole tree: typescript-eslint with type information, the folder boundaries of
// docs/architecture.md (scripts/lint/boundaries.mjs), no import cycles (scripts/lint/cycles.mjs),
// and SQL only where SQL belongs.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import boundaries from './scripts/lint/boundaries.mjs';
import cycles from './scripts/lint/cycles.mjs';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'dist-dev*/**',
      'dist-ssr/**',
      'frontend/dist/**',
      'frontend/dist-ssr/**',
      'test-results/**',
      '.data/**',
      'frontend/public/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.mjs', 'scripts/*.mjs', 'scripts/lint/*.mjs', 'tests/faults/support/*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    plugins: { boundaries },
    rules: {
      'boundaries/imports': 'error',
      // Stored-text validators match control characters on purpose.
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // CommonJS by design: run by plain Node, loading compiled output.
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['frontend/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // React takes async event handlers (form submits) and ignores what they return.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // A screen a newcomer can read in one sitting: a longer one splits into named components and hooks.
    files: ['frontend/**/*.{ts,tsx}'],
    ignores: ['**/*.spec.ts', '**/*.spec.tsx'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Each module takes the config sections it reads (core/config/config-sections.ts), never the
    // whole AppConfig: only core/config builds and cuts it (specs may build one to test with).
    files: ['backend/src/**/*.ts', 'worker/src/**/*.ts'],
    ignores: ['backend/src/core/config/**', '**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/app-config', '@core/config/app-config'],
              importNames: ['AppConfig'],
              message: 'Inject the config sections this code reads (core/config/config-sections.ts), not the whole AppConfig.',
            },
          ],
        },
      ],
    },
  },
  {
    // SQL lives in the repositories (one per table owner) and the migrations, nowhere else.
    files: ['backend/src/**/*.ts', 'worker/src/**/*.ts', 'scripts/**/*.ts'],
    ignores: [
      'backend/src/core/database/repositories/**',
      'backend/src/core/database/migrations/**',
      '**/*.spec.ts',
      // Creates the database itself with the pg client, before any schema (or repository) exists.
      'scripts/lib/postgres.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='query']",
          message: 'SQL belongs in a repository under backend/src/core/database/repositories (or a migration).',
        },
      ],
    },
  },
  {
    // Tests read JSON bodies and rows they do not type field by field; the compiler still checks them.
    files: ['tests/**/*.ts', '**/*.spec.ts', 'scripts/test.ts', 'scripts/test-deploy.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      // Stand-ins implement async interfaces without awaiting; expect(obj.method) is how jest spies read.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // Fresh module instances after jest.resetModules(), and timers handed through as globals.
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-implied-eval': 'off',
      // A skipped or focused test is a check that silently stopped checking (npm test also fails
      // on the count the runners report).
      'no-restricted-properties': [
        'error',
        ...['only', 'skip', 'todo', 'fixme'].map((property) => ({
          property,
          message: `.${property} leaves tests out of the run; remove it (or delete the test).`,
        })),
      ],
      'no-restricted-globals': [
        'error',
        ...['fit', 'fdescribe', 'xit', 'xtest', 'xdescribe'].map((name) => ({
          name,
          message: `${name} leaves tests out of the run; use it/describe.`,
        })),
      ],
    },
  },
  {
    // No import cycles in the API, the worker or the SPA (scripts/lint/cycles.mjs).
    files: ['backend/**/*.ts', 'worker/**/*.ts', 'frontend/**/*.{ts,tsx}'],
    plugins: { cycles },
    rules: { 'cycles/no-cycle': 'error' },
  },
  {
    // Playwright fixtures that need no other fixture take `{}` by its API.
    files: ['tests/e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
  prettier,
);
