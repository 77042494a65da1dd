import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { step } from './log';

export interface RunningRedis {
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

const INSTALL_HINT = 'sudo apt-get install -y redis-server   (Debian/Ubuntu)   or set REDIS_URL to a running Redis';

function hasBinary(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Finds redis-server; as root on Debian it installs the package, otherwise says how to. */
export function ensureRedisBinary(): void {
  if (hasBinary()) return;
  const canApt = userInfo().uid === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!canApt) throw new Error(`redis-server is not installed. Install it with:\n  ${INSTALL_HINT}`);
  step('redis-server not found: installing the Debian package (apt-get install redis-server)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const result = spawnSync('apt-get', ['install', '-y', '-qq', 'redis-server'], { stdio: 'inherit', env });
  if (result.status !== 0 || !hasBinary()) throw new Error(`Installing redis-server failed. Install it with:\n  ${INSTALL_HINT}`);
}

/**
 * A private redis-server configured the way BullMQ needs it: noeviction always, and AOF
 * persistence (fsync every second) unless the caller wants a throwaway instance.
 */
export async function startRedis(opts: { port: number; dir: string; persistent: boolean }): Promise<RunningRedis> {
  ensureRedisBinary();
  mkdirSync(opts.dir, { recursive: true });
  const args = [
    '--port', String(opts.port),
    '--bind', '127.0.0.1',
    '--dir', opts.dir,
    '--maxmemory-policy', 'noeviction',
    '--appendonly', opts.persistent ? 'yes' : 'no',
    '--appendfsync', 'everysec',
    '--save', opts.persistent ? '3600 1 300 100 60 10000' : '',
    '--daemonize', 'no',
    '--protected-mode', 'yes',
  ];
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}) on port ${opts.port}:\n${output.slice(-2000)}`)));
  });
  child.stdout?.removeAllListeners('data');
  child.stderr?.removeAllListeners('data');
  child.stdout?.resume();
  child.stderr?.resume();
  child.removeAllListeners('exit');
  return {
    url: `redis://127.0.0.1:${opts.port}`,
    port: opts.port,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(killer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
