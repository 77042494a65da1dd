// Mutation check of the money path (`npm run test:mutation`, not part of `npm test`): Stryker
// changes these files one small edit at a time and runs the unit specs that cover each edit; a
// surviving mutant is a change no test notices. Unit specs only: no Postgres or Redis here.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const jestConfig = require('./jest.config.js');

// `jest --selectProjects unit`: the 'unit' projects of jest.config.js, each in Stryker's node
// environment, which reports which test covers which mutant (jest does not pass a top-level
// environment on to projects, so Stryker cannot swap it in itself).
const unitProjects = jestConfig.projects
  .filter((project) => project.displayName === 'unit')
  .map((project) => {
    if (project.testEnvironment !== 'node') throw new Error(`unit project ${project.roots}: expected testEnvironment 'node'`);
    return { ...project, testEnvironment: '@stryker-mutator/jest-runner/jest-env/node' };
  });

const REPORTS = 'test-results/mutation';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    'backend/src/core/orders/order-state.ts',
    'worker/src/ledger/provider-call-ledger.ts',
    'backend/src/core/queue/owe.ts',
    'backend/src/contracts/plans.ts',
    'backend/src/modules/payments/checkout-plans.ts',
  ],
  testRunner: 'jest',
  jest: {
    projectType: 'custom',
    configFile: 'jest.config.js',
    config: { projects: unitProjects },
    enableFindRelatedTests: true,
  },
  coverageAnalysis: 'perTest',
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  // The sandbox gets only what the unit specs load: no .data (Postgres files), builds or reports.
  ignorePatterns: [
    '/*',
    '!/backend',
    '!/worker',
    '!/frontend',
    '/frontend/*',
    '!/frontend/src',
    '!/tests',
    '/tests/*',
    '!/tests/fakes',
    '!/jest.config.js',
    '!/tsconfig.json',
    '!/package.json',
  ],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  clearTextReporter: { allowColor: false, reportTests: false, logTests: false },
  htmlReporter: { fileName: `${REPORTS}/mutation.html` },
  jsonReporter: { fileName: `${REPORTS}/mutation.json` },
  thresholds: { high: 90, low: 80, break: 80 },
  // Inside test-results/, which git, eslint and prettier already ignore.
  tempDirName: 'test-results/.stryker-tmp',
  cleanTempDir: 'always',
  incremental: false,
};
