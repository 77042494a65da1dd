// Entry point of `npm start`, `npm test` and `npm run bench` on a fresh clone: installs
// dependencies when missing, (re)builds when sources changed, then runs the compiled command.
// Plain JavaScript on purpose: it must run before TypeScript and the dependencies exist.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const command = process.argv[2];
const commands = { start: 'start.js', test: 'test.js', bench: 'bench.js' };
if (!commands[command]) {
  console.error(`usage: node scripts/bootstrap.mjs ${Object.keys(commands).join('|')}`);
  process.exit(2);
}

function run(cmd, args, label) {
  console.log(`\n▶ ${label}`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error(`✖ ${label} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
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

const installedStamp = join(root, 'node_modules', '.package-lock.json');
if (!existsSync(installedStamp) || statSync(join(root, 'package-lock.json')).mtimeMs > statSync(installedStamp).mtimeMs) {
  // `npm install` with the committed lockfile gives the same tree; this npm's `npm ci` rejects
  // the lockfile over other platforms' optional packages it deliberately leaves out.
  run('npm', ['install', '--no-audit', '--no-fund'], 'Installing dependencies (npm install, from package-lock.json)');
}

const buildStamp = join(root, 'dist', '.build-stamp');
const sources = ['backend/src', 'worker/src', 'scripts', 'tests/fakes', 'tests/bench', 'frontend/src', 'frontend/index.html',
  'frontend/vite.config.ts', 'frontend/package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
const newestSource = Math.max(...sources.map((s) => newestMtime(join(root, s))));
if (!existsSync(buildStamp) || newestSource > statSync(buildStamp).mtimeMs || process.env.FORCE_BUILD === '1') {
  run('npm', ['run', 'build:server'], 'Compiling API, worker and tools (tsc)');
  run('npm', ['run', 'build:web'], 'Building the web app (vite)');
  writeFileSync(buildStamp, new Date().toISOString());
}

const result = spawnSync(process.execPath, [join(root, 'dist', 'scripts', commands[command]), ...process.argv.slice(3)], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
process.exit(result.status ?? 1);
