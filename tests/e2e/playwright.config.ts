import { defineConfig, devices } from '@playwright/test';
import { resolve } from 'node:path';

/**
 * Browser journeys against a running server (API + worker + Postgres + Redis serving the built
 * SPA), started by `npm test` before Playwright runs. Uses the system Chromium; never downloads one.
 */
const resultsDir = resolve(__dirname, '../../test-results');

const ADMIN_SPECS = /admin-.*\.spec\.ts$/;
/** Admin journeys that move the one sandbox clock every journey shares (and put it back after). */
const CLOCK_SPECS = /admin-(sandbox-clock|cancellation-flow)\.spec\.ts$/;

const browser = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  },
};

export default defineConfig({
  testDir: '.',
  outputDir: resolve(resultsDir, 'e2e'),
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: resolve(resultsDir, 'e2e-report') }]],
  use: {
    baseURL: process.env.E2E_BASE_URL ?? 'http://127.0.0.1:3000',
    headless: true,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: ADMIN_SPECS,
      use: browser,
    },
    {
      // Admin journeys change shared data the public pages show (featured testimonials, funnel
      // counts), so they run after the public journeys rather than beside them.
      name: 'admin',
      testMatch: ADMIN_SPECS,
      testIgnore: CLOCK_SPECS,
      dependencies: ['chromium'],
      use: browser,
    },
    {
      // One at a time: a journey counting the renewals of a pause must not see another move the
      // clock (or put it back) between its own moves.
      name: 'clock',
      testMatch: CLOCK_SPECS,
      dependencies: ['chromium'],
      workers: 1,
      use: browser,
    },
  ],
});
