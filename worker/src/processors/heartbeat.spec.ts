import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '@core/config/app-config';
import { WorkerHeartbeat } from './heartbeat';

describe('worker heartbeat', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'heartbeat-'));
    file = join(dir, 'worker-heartbeat');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const consumer = (running: () => boolean) => ({ worker: { isRunning: running } }) as never;
  const heartbeat = (config: Partial<AppConfig>, ...running: Array<() => boolean>) =>
    new WorkerHeartbeat(config as AppConfig, ...(running.map(consumer) as [never, never, never, never]));

  it('writes the file while every consumer runs, and removes it at shutdown', () => {
    const beat = heartbeat({ WORKER_HEARTBEAT_FILE: file }, ...Array.from({ length: 4 }, () => () => true));
    beat.onApplicationBootstrap();
    expect(readFileSync(file, 'utf8')).toMatch(/^\d{4}-\d\d-\d\dT/);
    beat.beforeApplicationShutdown();
    expect(existsSync(file)).toBe(false);
  });

  it('does not beat while one consumer has stopped', () => {
    let paymentsRunning = true;
    const beat = heartbeat(
      { WORKER_HEARTBEAT_FILE: file },
      () => true,
      () => paymentsRunning,
      () => true,
      () => true,
    );
    expect(beat.beat()).toBe(true);
    paymentsRunning = false;
    expect(beat.beat()).toBe(false);
    beat.beforeApplicationShutdown();
  });

  it('writes nothing when WORKER_HEARTBEAT_FILE is unset', () => {
    const beat = heartbeat({}, ...Array.from({ length: 4 }, () => () => true));
    beat.onApplicationBootstrap();
    expect(beat.beat()).toBe(false);
  });
});
