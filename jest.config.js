// Unit specs sit next to the code; integration specs in tests/integration need the Postgres and
// Redis that `npm test` starts (DATABASE_URL, REDIS_URL).
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }],
  // NestJS 12 and some of its dependencies are ES modules only (tests/support/esm-packages.transform.js).
  '^.+/node_modules/.+\\.m?js$': '<rootDir>/tests/support/esm-packages.transform.js',
};
// Every file goes through `transform` (it leaves CommonJS under node_modules as it is).
const transformIgnorePatterns = [];
// The path alias of tsconfig.json; the compiled output gets it from tsc-alias.
const moduleNameMapper = {
  '^@contracts/(.*)$': '<rootDir>/backend/src/contracts/$1',
  '^@core/(.*)$': '<rootDir>/backend/src/core/$1',
};

// Under node_modules rather than the temp folder, which `npm test` points at a scratch folder it removes.
const cacheDirectory = '<rootDir>/node_modules/.cache/jest';

module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      roots: ['<rootDir>/backend/src', '<rootDir>/worker/src'],
      testMatch: ['**/*.spec.ts'],
      transform,
      transformIgnorePatterns,
      cacheDirectory,
      moduleNameMapper,
    },
    {
      // The SPA's framework-free helpers (lib/, content/), in node with the few browser objects each spec
      // stands in; named 'unit' so the unit run picks them up.
      displayName: 'unit',
      testEnvironment: 'node',
      roots: ['<rootDir>/frontend/src/lib', '<rootDir>/frontend/src/content', '<rootDir>/frontend/vite'],
      testMatch: ['**/*.spec.ts'],
      transformIgnorePatterns,
      cacheDirectory,
      // Copy files come checked and filled in, as the build's site plugin gives them to the bundle.
      transform: { ...transform, '/site/.+\\.json$': '<rootDir>/tests/support/site-copy.transform.js' },
      moduleNameMapper: { ...moduleNameMapper, '^@/(.*)$': '<rootDir>/frontend/src/$1', '^@site/(.*)$': '<rootDir>/site/$1' },
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      roots: ['<rootDir>/tests/integration'],
      testMatch: ['**/*.spec.ts'],
      transform,
      transformIgnorePatterns,
      cacheDirectory,
      moduleNameMapper,
      setupFilesAfterEnv: ['<rootDir>/tests/integration/support/jest-setup.ts'],
    },
    {
      // Money invariants over random sequences (fast-check) against the real API, worker and sandbox.
      displayName: 'model',
      testEnvironment: 'node',
      roots: ['<rootDir>/tests/model'],
      testMatch: ['**/*.spec.ts'],
      transform,
      transformIgnorePatterns,
      cacheDirectory,
      moduleNameMapper,
      setupFilesAfterEnv: ['<rootDir>/tests/integration/support/jest-setup.ts'],
    },
    {
      // Real processes killed and restarted mid-load; each spec starts its own Postgres and Redis.
      displayName: 'faults',
      testEnvironment: 'node',
      roots: ['<rootDir>/tests/faults'],
      testMatch: ['**/*.spec.ts'],
      transform,
      transformIgnorePatterns,
      cacheDirectory,
      moduleNameMapper,
      setupFilesAfterEnv: ['<rootDir>/tests/integration/support/jest-setup.ts'],
    },
    {
      // Generated malformed requests against the compiled API over the suite's Postgres and Redis.
      displayName: 'fuzz',
      testEnvironment: 'node',
      roots: ['<rootDir>/tests/fuzz'],
      testMatch: ['**/*.spec.ts'],
      transform,
      transformIgnorePatterns,
      cacheDirectory,
      moduleNameMapper,
      setupFilesAfterEnv: ['<rootDir>/tests/integration/support/jest-setup.ts'],
    },
  ],
};
