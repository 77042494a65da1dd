import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './app-processes';
import type { Lifecycle } from './lifecycle';
import { step } from './log';
import { freePort } from './ports';

// The Compose deployment as `npm run test:deploy` and `BENCH_LAUNCH_STACK=compose npm run bench:launch`
// run it: the image built from this tree, docker-compose.yml with an env file and an override of
// their own, and everything removed (containers, volumes, scratch folder) however the run ends.

const exec = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs a command to its end; its output goes to `log` (when given) and into the error when it fails.
 * `input` is written to its stdin, which then ends (at once without it).
 */
export function run(cmd: string, args: string[], opts: { log?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: repoRoot, env: opts.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end(opts.input);
    const file = opts.log ? createWriteStream(opts.log, { flags: 'a' }) : null;
    let out = '';
    const take = (chunk: Buffer) => {
      out += chunk.toString();
      file?.write(chunk);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('error', reject);
    child.once('exit', (code) => {
      file?.end();
      if (code === 0) resolve(out);
      else reject(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${out.trim().split('\n').slice(-15).join('\n')}`));
    });
  });
}

/** Polls `probe` each second until it yields a value, or fails with the last error after `timeoutMs`. */
export async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    await sleep(1000);
  }
  throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
}

/** `docker compose` (v2) when the plugin is there, else Debian's docker-compose v1.29 in compatibility mode (deploy.replicas). */
async function composeCommand(): Promise<string[]> {
  try {
    await exec('docker', ['compose', 'version']);
    return ['docker', 'compose'];
  } catch {
    try {
      await exec('docker-compose', ['version']);
      return ['docker-compose', '--compatibility'];
    } catch {
      throw new Error(
        "Neither `docker compose` (v2) nor `docker-compose` is installed. On this project's machines: sudo ../shared/tools/docker-standins.sh",
      );
    }
  }
}

/** The Compose command, once a Docker daemon is known to answer (a readable error otherwise). */
export async function dockerReady(): Promise<string[]> {
  const compose = await composeCommand();
  await run('docker', ['info']).catch(() => {
    throw new Error("No Docker daemon answers `docker info`. On this project's machines: sudo ../shared/tools/docker-standins.sh");
  });
  step(`Compose: ${compose.join(' ')} (${(await run(compose[0], [...compose.slice(1), 'version'])).split('\n')[0].trim()})`);
  return compose;
}

/** `docker build -t clear-funnel:<tag> .`, its output appended to `log`; the seconds it took. */
export async function buildImage(tag: string, log: string): Promise<number> {
  step(`Building the image (docker build -t clear-funnel:${tag} .; log: ${log.slice(repoRoot.length + 1)})`);
  const started = Date.now();
  await run('docker', ['build', '-t', `clear-funnel:${tag}`, '.'], { log });
  return Math.round((Date.now() - started) / 1000);
}

/** The name under which the workers reach this machine (a fake listening on 0.0.0.0 here). */
const THIS_MACHINE = 'host.docker.internal';

/** A loopback URL of this machine as the workers reach it. */
export const fromContainers = (url: string): string => url.replace('127.0.0.1', THIS_MACHINE);

export interface ComposeStack {
  project: string;
  /** The site through Caddy: http://localhost:<port>. */
  site: string;
  /** The MailDev web port (the `local` profile). */
  mailPort: number;
  /** The password of Postgres's `clear` role, generated for this run. */
  postgresPassword: string;
  /** What GET /api/health answered through Caddy once the stack was up. */
  health: { status: string; postgres?: string; redis?: string };
  /** `docker-compose … <args>` for this project, its output appended to the compose log. */
  dc(...args: string[]): Promise<string>;
  /** The same, with `input` on its stdin. */
  dcWithInput(input: string, ...args: string[]): Promise<string>;
  /** The ids of a service's running containers. */
  containers(service: string): Promise<string[]>;
  /** Whether every API and worker replica reports healthy. */
  allHealthy(): Promise<boolean>;
  /** Removes the stack, its volumes and the scratch folder now (otherwise when `life` ends). */
  stop(): Promise<void>;
}

export interface ComposeStackOptions {
  /** The image tag built for this run (clear-funnel:<tag>). */
  imageTag: string;
  /** A name for the project and scratch folder: clear-<name>-<random>. */
  name: string;
  resultsDir: string;
  apiReplicas: number;
  workerReplicas: number;
  /** Lines added to the env file (KEY=value): the run's own settings. */
  env: string[];
  /** Override lines under `services:`, beyond the workers' route to this machine (THIS_MACHINE), which is always there. */
  services?: string[];
}

/**
 * Starts docker-compose.yml with the `local` profile (MailDev), the secrets generated for this run,
 * PAYMENT_PROVIDER=sandbox (with its own signing secret, as production requires), the given replicas and the workers' route to the fakes on this machine
 * (THIS_MACHINE; test runs only, never the deployed file), waits until every API and worker replica is
 * healthy and /api/health answers through Caddy, and leaves `life` owning the stack's removal.
 */
export async function startComposeStack(life: Lifecycle, opts: ComposeStackOptions): Promise<ComposeStack> {
  const compose = await composeCommand();
  const scratch = mkdtempSync(join(tmpdir(), `clear-${opts.name}-`));
  const removeScratch = life.own('Scratch folder', () => Promise.resolve(rmSync(scratch, { recursive: true, force: true })), 'removed');
  const [httpPort, httpsPort, mailPort] = [await freePort(), await freePort(), await freePort()];
  const site = `http://localhost:${httpPort}`;
  const envFile = join(scratch, `${opts.name}.env`);
  const hex = (bytes: number) => randomBytes(bytes).toString('hex');
  const postgresPassword = hex(24);
  writeFileSync(
    envFile,
    [
      `COMPOSE_ENV_FILE=${envFile}`,
      'COMPOSE_PROFILES=local',
      `IMAGE_TAG=${opts.imageTag}`,
      `POSTGRES_PASSWORD=${postgresPassword}`,
      `REDIS_PASSWORD=${hex(24)}`,
      `INVITATION_TOKEN_KEY=${hex(32)}`,
      'PAYMENT_PROVIDER=sandbox',
      `SANDBOX_WEBHOOK_SECRET=whsec_${hex(24)}`,
      `HTTP_PORT=${httpPort}`,
      `HTTPS_PORT=${httpsPort}`,
      `MAIL_WEB_PORT=${mailPort}`,
      `PUBLIC_URL=${site}`,
      `API_REPLICAS=${opts.apiReplicas}`,
      `WORKER_REPLICAS=${opts.workerReplicas}`,
      ...opts.env,
      '',
    ].join('\n'),
  );
  const override = join(scratch, `${opts.name}.override.yml`);
  writeFileSync(
    override,
    ['services:', '  worker:', `    extra_hosts: ['${THIS_MACHINE}:host-gateway']`, ...(opts.services ?? []), ''].join('\n'),
  );
  const files = ['-f', join(repoRoot, 'docker-compose.yml'), '-f', override];
  const project = `clear-${opts.name}-${hex(3)}`;
  const composeArgs = [...compose.slice(1), '-p', project, '--env-file', envFile, ...files];
  const dcWithInput = (input: string | undefined, ...args: string[]) =>
    run(compose[0], [...composeArgs, ...args], { log: join(opts.resultsDir, 'compose.log'), input });
  const dc = (...args: string[]) => dcWithInput(undefined, ...args);
  const removeStack = life.own(
    'Compose stack and its volumes',
    async () => {
      await dc('down', '-v', '--remove-orphans').catch((err: Error) => step(`compose down failed: ${err.message}`));
    },
    'removed',
  );

  step(
    `Starting the stack (project ${project}: ${opts.apiReplicas} API, ${opts.workerReplicas} worker, Caddy on ${site}, MailDev on http://127.0.0.1:${mailPort})`,
  );
  await dc('up', '-d', '--no-build');
  const containers = async (service: string) => (await dc('ps', '-q', service)).trim().split('\n').filter(Boolean);
  const healthOf = async (id: string) => (await run('docker', ['inspect', '-f', '{{.State.Health.Status}}', id])).trim();
  const allHealthy = async () => {
    const ids = [...(await containers('api')), ...(await containers('worker'))];
    return ids.length === opts.apiReplicas + opts.workerReplicas && (await Promise.all(ids.map(healthOf))).every((s) => s === 'healthy');
  };
  await waitFor(`${opts.apiReplicas} API and ${opts.workerReplicas} worker containers healthy`, 240_000, allHealthy);
  const health = await waitFor('GET /api/health through Caddy', 60_000, async () => {
    const res = await fetch(`${site}/api/health`);
    const body = (await res.json()) as ComposeStack['health'];
    return res.status === 200 && body.status === 'ok' ? body : null;
  });
  const stop = async () => {
    await removeStack();
    await removeScratch();
  };
  return { project, site, mailPort, postgresPassword, health, dc, dcWithInput, containers, allHealthy, stop };
}

/** The host's process id of a container's first process (its node, postmaster or redis-server). */
export async function containerPid(id: string): Promise<number | undefined> {
  const pid = Number((await run('docker', ['inspect', '-f', '{{.State.Pid}}', id])).trim());
  return pid > 0 ? pid : undefined;
}
