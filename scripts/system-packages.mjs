// The one place that knows which system packages the README commands need and how to get them:
// Debian's packages through apt-get, installed when running as root, otherwise the exact command
// is printed and nothing else runs. Plain JavaScript: it runs before dependencies are installed.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const onPath = (binary, env) =>
  (env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, binary), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

const executable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

export const chromiumPath = (env) => env.CHROMIUM_PATH || '/usr/bin/chromium';

const REQUIREMENTS = {
  redis: {
    what: 'redis-server (for the job queues)',
    packages: ['redis-server'],
    present: (env) => onPath('redis-server', env),
  },
  chromium: {
    what: 'Chromium (for the browser tests and the page-speed benchmark)',
    // The fonts make screenshots and layout match what a visitor's browser renders.
    packages: ['chromium', 'fonts-liberation'],
    present: (env) => executable(chromiumPath(env)),
  },
};

/** Which requirements a command needs, given its arguments and environment. */
export function requirementsFor(command, args, env) {
  const needs = new Set();
  if ((command === 'start' || command === 'dev') && !env.REDIS_URL) needs.add('redis');
  if (command === 'test') {
    needs.add('redis');
    const browser = args.length === 0 ? env.SKIP_E2E !== '1' : args.includes('e2e');
    if (browser) needs.add('chromium');
  }
  if (command === 'bench') {
    needs.add('redis');
    // Flags (--enforce-budget) choose no benchmark: without a name, every one runs, web included.
    const names = args.filter((arg) => !arg.startsWith('--'));
    if (names.length === 0 || names.includes('web')) needs.add('chromium');
  }
  return [...needs];
}

const aptInstallArgs = (packages) => ['install', '-y', '-qq', '--no-install-recommends', ...packages];

/**
 * Makes sure the command's system packages are there. Returns null when they are (installing
 * them first as root with apt-get), or a message with the exact command to run.
 */
export function ensureSystemPackages(command, args, env = process.env, log = console.log) {
  const missing = requirementsFor(command, args, env)
    .map((name) => REQUIREMENTS[name])
    .filter((req) => !req.present(env));
  if (missing.length === 0) return null;
  const packages = missing.flatMap((req) => req.packages);
  const what = missing.map((req) => req.what).join(' and ');
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore', env }).status === 0;
  const installCommand = `sudo apt-get update && sudo apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  if (!isRoot || !hasApt) {
    return [
      `Missing ${what}.`,
      hasApt ? `Install with:\n  ${installCommand}` : `Install the Debian/Ubuntu packages ${packages.join(', ')} (${installCommand}).`,
      missing.some((req) => req === REQUIREMENTS.redis) ? 'Or point REDIS_URL at a running Redis (npm start).' : '',
    ]
      .filter(Boolean)
      .join('\n');
  }
  log(`\n▶ Installing ${what} with apt-get: ${packages.join(' ')}`);
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
  const started = Date.now();
  for (const step of [['update', '-qq'], aptInstallArgs(packages)]) {
    const result = spawnSync('apt-get', step, { stdio: 'inherit', env: aptEnv });
    if (result.status !== 0)
      return `apt-get ${step[0]} failed (exit ${result.status ?? result.signal}). Install by hand with:\n  ${installCommand}`;
  }
  const still = missing.filter((req) => !req.present(env));
  if (still.length)
    return `apt-get finished but ${still.map((req) => req.what).join(' and ')} is still missing. Install by hand with:\n  ${installCommand}`;
  log(`✔ Installed ${packages.join(' ')} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return null;
}
