// Entry point of `npm start`, `npm run dev`, `npm test`, `npm run bench` and `npm run stripe:setup` on a fresh clone: installs
// dependencies when missing, (re)builds when sources changed, then runs the compiled command.
// Plain JavaScript on purpose: it must run before TypeScript and the dependencies exist.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { ensureSystemPackages } from './system-packages.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const command = process.argv[2];
const commandArgs = process.argv.slice(3);
const commands = {
  start: 'start.js',
  dev: 'dev.js',
  test: 'test.js',
  bench: 'bench.js',
  'test-deploy': 'test-deploy.js',
  'stripe-setup': 'stripe-setup.js',
  'email-compile': 'email-compile.js',
  'email-preview': 'email-preview.js',
};
if (!commands[command]) {
  console.error(`usage: node scripts/bootstrap.mjs ${Object.keys(commands).join('|')}`);
  process.exit(2);
}

// Signals are forwarded to whatever runs now; the command itself stops its processes in order.
let running = null;
let received = null;
const signalExitCode = (signal) => 128 + (constants.signals[signal] ?? 15);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    received ??= signal;
    if (running) running.kill(signal);
    else process.exit(signalExitCode(signal));
  });
}

// npm runs us through `sh -c`; if whatever launched us disappears without passing a signal on,
// treat that as a stop request rather than run on as an orphan.
const launcher = process.ppid;
const orphanWatch = setInterval(() => {
  if (process.ppid === launcher) return;
  clearInterval(orphanWatch);
  process.emit('SIGTERM', 'SIGTERM');
}, 500).unref();

function spawnAndWait(cmd, args, options) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: process.env, ...options });
    running = child;
    child.once('error', (err) => {
      console.error(`✖ Could not run ${cmd}: ${err.message}`);
      resolve(1);
    });
    child.once('exit', (code, signal) => {
      running = null;
      resolve(code ?? signalExitCode(signal));
    });
  });
}

async function run(cmd, args, label, onFailure) {
  console.log(`\n▶ ${label}`);
  const started = Date.now();
  const code = await spawnAndWait(cmd, args, { stdio: 'inherit' });
  if (received) process.exit(signalExitCode(received));
  if (code !== 0) {
    console.error(`✖ ${label} failed (exit ${code})`);
    onFailure?.();
    process.exit(code || 1);
  }
  console.log(`✔ ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

// `npm start`, `npm run dev` and `npm run stripe:setup` read .env (or the file ENV_FILE names; none with ENV_FILE=none) the way the built
// processes do (backend/src/core/config/env-file.ts): variables already set win, an empty value is
// unset. Read here too, so the checks below see it (REDIS_URL there means no local redis-server).
// `npm test` and `npm run bench` run on their own settings and read none.
function loadEnvFile() {
  const named = process.env.ENV_FILE;
  if (named === 'none') return;
  const path = resolve(named || '.env');
  if (!existsSync(path)) {
    if (!named) return;
    console.error(`✖ ENV_FILE names ${path}, which does not exist (ENV_FILE=none reads no file)`);
    process.exit(1);
  }
  for (const [name, value] of Object.entries(parseEnv(readFileSync(path, 'utf8')))) {
    if (process.env[name] === undefined && value !== '') process.env[name] = value;
  }
}
if (command === 'start' || command === 'dev' || command === 'stripe-setup') loadEnvFile();
else process.env.ENV_FILE = 'none';

const missing = ensureSystemPackages(command, commandArgs);
if (missing) {
  console.error(`\n✖ ${missing}`);
  process.exit(1);
}

// npm's record of what it installed (node_modules/.package-lock.json) against the lockfile: by
// content, not by date, so a checkout that only touches package-lock.json installs nothing.
// Optional packages for other platforms (esbuild's, rollup's, …) are in the lockfile but never installed.
function installStale() {
  const installedPath = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(installedPath)) return 'node_modules is missing';
  const locked = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages ?? {};
  const installed = JSON.parse(readFileSync(installedPath, 'utf8')).packages ?? {};
  for (const [path, entry] of Object.entries(locked)) {
    if (!path.includes('node_modules/') || entry.link) continue;
    const have = installed[path];
    if (!have && entry.optional) continue;
    if (!have || have.version !== entry.version) return `${path} ${entry.version} is not installed`;
  }
  return null;
}

const stale = installStale();
if (stale) {
  console.log(`\n${stale}: installing exactly what package-lock.json names`);
  // `npm ci`, not `npm install`: it never rewrites the lockfile, and it stops when package.json
  // and package-lock.json disagree instead of quietly resolving something else.
  await run('npm', ['ci', '--no-audit', '--no-fund'], 'Installing dependencies (npm ci, from package-lock.json)', () =>
    console.error('  If package.json changed: run `npm install` to update package-lock.json, and commit both.'),
  );
}

const buildStamp = join(root, 'dist', '.build-stamp');
const sources = [
  'backend/src',
  'worker/src',
  'scripts',
  'tests/fakes',
  'tests/bench',
  'frontend/src',
  'frontend/index.html',
  'frontend/admin.html',
  'frontend/vite',
  'frontend/vite.config.ts',
  'frontend/package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];
// The site folder is built into the pages: an edit of it, or another SITE_DIR, rebuilds them.
const builtSite = process.env.SITE_DIR?.trim() ? resolve(process.env.SITE_DIR.trim()) : join(root, 'site');
const newestSource = Math.max(newestMtime(builtSite), ...sources.map((s) => newestMtime(join(root, s))));
const stampedSite = existsSync(buildStamp) ? readFileSync(buildStamp, 'utf8').split('\n')[1] : undefined;
if (
  !existsSync(buildStamp) ||
  newestSource > statSync(buildStamp).mtimeMs ||
  stampedSite !== builtSite ||
  process.env.FORCE_BUILD === '1'
) {
  await run('npm', ['run', 'build:server'], 'Compiling API, worker and tools (tsc)');
  await run('npm', ['run', 'build:web'], `Building the web app (vite) from the site folder ${builtSite}`);
  writeFileSync(buildStamp, `${new Date().toISOString()}\n${builtSite}\n`);
}

// Its own process group, so a terminal's Ctrl-C reaches it once, through us, and it stops its
// children in order; the IPC channel tells it when we are gone without a signal.
const code = await spawnAndWait(process.execPath, [join(root, 'dist', 'scripts', commands[command]), ...commandArgs], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  detached: true,
});
process.exit(code);
