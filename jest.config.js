// Unit specs sit next to the code; integration specs in tests/integration need the Postgres and
// Redis that `npm test` starts (DATABASE_URL, REDIS_URL).
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }] };

module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      roots: ['<rootDir>/backend/src', '<rootDir>/worker/src'],
      testMatch: ['**/*.spec.ts'],
      transform,
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      roots: ['<rootDir>/tests/integration'],
      testMatch: ['**/*.spec.ts'],
      transform,
      setupFilesAfterEnv: ['<rootDir>/tests/integration/support/jest-setup.ts'],
    },
  ],
};
