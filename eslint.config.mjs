// One lint for the whole tree: typescript-eslint with type information, the folder boundaries of
// docs/architecture.md (scripts/lint/boundaries.mjs), and SQL only where SQL belongs.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import boundaries from './scripts/lint/boundaries.mjs';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
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
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['frontend/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
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
    files: ['tests/**/*.ts', '**/*.spec.ts', 'scripts/test.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  prettier,
);
