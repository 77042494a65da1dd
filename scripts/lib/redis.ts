import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

export interface RunningRedis {
  url: string;
  port: number;
  process: ChildProcess;
  stop: () => Promise<void>;
}

/** The README commands install redis-server first (scripts/system-packages.mjs); this is the fallback message. */
function ensureRedisBinary(): void {
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0) return;
  throw new Error(
    'redis-server is not installed: run the command through npm (npm start / npm test), which installs it or prints how, or set REDIS_URL',
  );
}

/**
 * A private redis-server configured the way BullMQ needs it: noeviction always, and AOF
 * persistence (fsync every second) unless the caller wants a throwaway instance.
 */
export async function startRedis(opts: { port: number; dir: string; persistent: boolean }): Promise<RunningRedis> {
  ensureRedisBinary();
  mkdirSync(opts.dir, { recursive: true });
  const args = [
    '--port',
    String(opts.port),
    '--bind',
    '127.0.0.1',
    '--dir',
    opts.dir,
    '--maxmemory-policy',
    'noeviction',
    '--appendonly',
    opts.persistent ? 'yes' : 'no',
    '--appendfsync',
    'everysec',
    '--save',
    opts.persistent ? '3600 1 300 100 60 10000' : '',
    '--daemonize',
    'no',
    '--protected-mode',
    'yes',
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
