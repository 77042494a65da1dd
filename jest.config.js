// Unit specs sit next to the code; integration specs in tests/integration need the Postgres and
// Redis that `npm test` starts (DATABASE_URL, REDIS_URL).
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }];
// content-disposition (pulled in by @fastify/static) ships ESM only; Node loads it natively via
// require(esm), jest's CommonJS runtime needs it transpiled.
const esmJs = ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022' }, diagnostics: false }];
const esmOnly = ['content-disposition'];
const transform = { '^.+\\.ts$': tsJest, [`/node_modules/(${esmOnly.join('|')})/.+\\.js$`]: esmJs };
const transformIgnorePatterns = [`/node_modules/(?!(${esmOnly.join('|')})/)`];

module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      roots: ['<rootDir>/backend/src', '<rootDir>/worker/src'],
      testMatch: ['**/*.spec.ts'],
      transform,
      transformIgnorePatterns,
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      roots: ['<rootDir>/tests/integration'],
      testMatch: ['**/*.spec.ts'],
      transform,
      transformIgnorePatterns,
      setupFilesAfterEnv: ['<rootDir>/tests/integration/support/jest-setup.ts'],
    },
  ],
};
