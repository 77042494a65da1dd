import { spawn, spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { loadEnvFile } from '@core/config/env-file';
import { Lifecycle } from './lib/lifecycle';
import { root, startLocalServices } from './lib/local-services';
import { step } from './lib/log';
import { Managed, startProcess, waitForHttp } from './lib/processes';

/** tsc's own line after each compile in watch mode: "Found 0 errors. Watching for file changes." */
const COMPILED = /Found (\d+) errors?\. Watching for file changes\./;

/**
 * The compiled API and worker, restarted together after each successful compile. A crash does
 * not end the session: the next change starts them again.
 */
class RestartingApp {
  private running: Managed[] = [];
  private restarts = 0;

  constructor(
    private readonly life: Lifecycle,
    private readonly env: NodeJS.ProcessEnv,
    private readonly port: number,
    private readonly outDir: string,
  ) {}

  async restart(): Promise<void> {
    await this.stop();
    const worker = startProcess(
      'Worker',
      process.execPath,
      ['--enable-source-maps', join(this.outDir, 'worker', 'src', 'main.js')],
      this.env,
    );
    const api = startProcess('API', process.execPath, ['--enable-source-maps', join(this.outDir, 'backend', 'src', 'main.js')], this.env);
    this.running = [worker, api];
    for (const p of this.running) {
      p.child.once('exit', (code, signal) => {
        if (this.running.includes(p) && !this.life.isExiting)
          step(`${p.name} exited (${signal ?? `code ${code}`}); it starts again on the next change`);
      });
    }
    await waitForHttp(`http://127.0.0.1:${this.port}/api/health/live`, api.child);
    step(this.restarts++ > 0 ? 'Restarted the API and worker with the new build' : 'The API and worker are running');
  }

  async stop(): Promise<void> {
    const stopping = [...this.running].reverse();
    this.running = [];
    for (const p of stopping) await p.stop();
  }
}

/**
 * `npm run dev`: the same embedded Postgres, Redis and mail inbox as `npm start`, with the code
 * live. `tsc --watch` recompiles the API, worker and tools into dist-dev/ (DEV_OUT_DIR); after
 * each compile without errors the path aliases are rewritten (tsc-alias) and the API and worker
 * restart. Vite serves
 * the SPA with hot reload on WEB_DEV_PORT (5173), forwarding /api to the API. A stop (Ctrl-C,
 * SIGTERM) undoes it all in reverse order, as `npm start` does.
 */
async function main(life: Lifecycle): Promise<'stay'> {
  const envFile = loadEnvFile();
  if (envFile) step(`Read settings from ${envFile} (variables set in the environment win)`);
  const webPort = Number(process.env.WEB_DEV_PORT ?? 5173);
  const { env, port, bannerLines } = await startLocalServices(life, { nodeEnv: 'development', extraPorts: { WEB_DEV_PORT: webPort } });

  // Its own output folder (inside the checkout, so node_modules resolve): `npm start`'s dist/ and
  // whatever runs from it are never touched by a half-written watch build.
  const outDir = resolve(root, process.env.DEV_OUT_DIR ?? 'dist-dev');
  const app = new RestartingApp(life, env, port, outDir);
  life.own('API and worker', () => app.stop());

  // One compile at a time is followed by one restart at a time, in order.
  let queue = Promise.resolve();
  let firstBuild: () => void = () => undefined;
  const built = new Promise<void>((done) => (firstBuild = done));
  step(`Compiling the API, worker and tools into ${outDir} (tsc --watch)`);
  const compiler = spawn(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', outDir, '--watch', '--preserveWatchOutput'],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  life.own('Compiler (tsc --watch)', () => stopChild(compiler));
  createInterface({ input: compiler.stdout }).on('line', (line) => {
    if (line.trim()) process.stdout.write(`[tsc] ${line}\n`);
    const found = COMPILED.exec(line);
    if (!found) return;
    queue = queue.then(async () => {
      if (Number(found[1]) > 0) return step('The API and worker keep running the last build that compiled; fix the errors above');
      rewriteAliases(outDir);
      if (life.isExiting) return;
      await app.restart().catch((err: Error) => step(`The API did not come up: ${err.message}`));
      firstBuild();
    });
  });
  await built;

  const vite = startProcess(
    'Vite',
    process.execPath,
    [
      join(dirname(require.resolve('vite/package.json')), 'bin', 'vite.js'),
      '--port',
      String(webPort),
      '--strictPort',
      '--host',
      '127.0.0.1',
      '--clearScreen',
      'false',
    ],
    { ...env, API_PROXY_TARGET: `http://127.0.0.1:${port}` },
    false,
    join(root, 'frontend'),
  );
  life.own('Vite', () => vite.stop());
  await waitForHttp(`http://127.0.0.1:${webPort}/`, vite.child);

  process.stdout.write(
    [
      '',
      '  The funnel is running in development mode',
      `  Site            http://localhost:${webPort} (Vite, hot reload)`,
      `  API             http://localhost:${port} (restarts after each compile; serves the last built SPA too)`,
      `  API docs        http://localhost:${port}/api/docs`,
      ...bannerLines,
      '',
      '  Edit backend/, worker/ or frontend/: the page or the processes follow. Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  return 'stay';
}

/** tsc leaves `@core/…` imports as written; tsc-alias makes them relative, as `npm run build:server` does. */
function rewriteAliases(outDir: string): void {
  const tscAlias = require.resolve('tsc-alias/dist/bin/index.js');
  const result = spawnSync(process.execPath, [tscAlias, '-p', 'tsconfig.build.json', '--outDir', outDir], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) step('tsc-alias failed: the new build may not start');
}

function stopChild(child: ReturnType<typeof spawn>): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

// A requested stop of `npm run dev` is a normal end, not a failure.
const life = new Lifecycle({ signalExitCode: () => 0 });
life.run(() => main(life));
