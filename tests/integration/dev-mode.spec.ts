import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { descendantsOf, eventually, exitOf, freePort, isAlive, portIsFree, waitForOutput } from './support/process-tree';

/**
 * `npm run dev` as a developer meets it (the compiled dev.js, as bootstrap runs it): the same
 * data services as `npm start`, Vite serving the SPA and forwarding /api, the API and worker
 * restarted after a source change compiles, and everything gone on SIGTERM. Its watch build goes
 * to its own folder, so the dist/ other suites run from is never rewritten under them.
 */
const root = resolve(__dirname, '..', '..');
const STOP_BOUND_MS = 30_000;

it('serves the SPA with hot reload, restarts the API and worker after a change, and leaves nothing on SIGTERM', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'clear-dev-test-'));
  const outDir = `dist-dev-test-${process.pid}`;
  const probe = join(root, 'scripts', `dev-probe-${process.pid}.ts`);
  const ports = await Promise.all([1, 2, 3, 4, 5, 6].map(() => freePort()));
  const [port, web, pg, redis, mailWeb, mailSmtp] = ports;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'NODE_ENV', 'PORT', 'SMTP_URL', 'JEST_WORKER_ID']) delete env[name];
  const child = spawn(process.execPath, [join(root, 'dist', 'scripts', 'dev.js')], {
    cwd: root,
    env: {
      ...env,
      ENV_FILE: 'none',
      LOG_LEVEL: 'warn',
      SEED_DEMO: '0',
      DATA_DIR: dataDir,
      DEV_OUT_DIR: outDir,
      PORT: String(port),
      WEB_DEV_PORT: String(web),
      EMBEDDED_PG_PORT: String(pg),
      LOCAL_REDIS_PORT: String(redis),
      MAIL_WEB_PORT: String(mailWeb),
      MAIL_SMTP_PORT: String(mailSmtp),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  let processes: number[] = [];
  try {
    await waitForOutput(child, 'The funnel is running in development mode', 180_000);
    processes = descendantsOf(child.pid!);
    // Vite's development server (its client for hot reload), forwarding /api to the API.
    const page = await (await fetch(`http://127.0.0.1:${web}/`)).text();
    expect(page).toContain('/@vite/client');
    expect((await fetch(`http://127.0.0.1:${web}/api/health/live`)).status).toBe(200);
    expect(existsSync(join(root, outDir, 'backend', 'src', 'main.js'))).toBe(true);

    // A new source file compiles, and the API and worker start again from the new build.
    const restarts = () => output.split('Restarted the API and worker with the new build').length - 1;
    writeFileSync(probe, 'export const devProbe = 1;\n');
    expect(await eventually(() => restarts() === 1, 120_000)).toBe(true);
    expect(existsSync(join(root, outDir, 'scripts', `dev-probe-${process.pid}.js`))).toBe(true);
    expect((await fetch(`http://127.0.0.1:${port}/api/health/live`)).status).toBe(200);

    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
    expect(await eventually(() => processes.every((pid) => !isAlive(pid)), STOP_BOUND_MS)).toBe(true);
    for (const p of ports) expect(await portIsFree(p)).toBe(true);
    expect(existsSync(join(dataDir, 'npm-start.json'))).toBe(false);
    expect(output).not.toMatch(/^\s+at /m);
  } finally {
    for (const pid of [child.pid!, ...processes]) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(probe, { force: true });
    rmSync(join(root, outDir), { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 420_000);
