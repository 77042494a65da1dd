import { Logger } from '@nestjs/common';
import { createServer } from 'node:net';
import { loadConfig } from '@core/config/app-config';
import { FixedWindowCounter } from './fixed-window-counter';
import { SharedWindows } from './shared-windows';

/** A port nothing listens on: Redis is "down" for the whole spec. */
const closedPort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe('SharedWindows while Redis is away', () => {
  let windows: SharedWindows;
  let warn: jest.SpyInstance;

  beforeAll(async () => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    windows = new SharedWindows(loadConfig({ DATABASE_URL: 'postgres://x/y', REDIS_URL: `redis://127.0.0.1:${await closedPort()}` }));
    await windows.onModuleInit();
  });
  afterAll(() => {
    windows.onApplicationShutdown();
    warn.mockRestore();
  });

  it('still limits, counting in this instance, and says so once without the key', async () => {
    const counter = new FixedWindowCounter(windows, 'token-checks', 60_000);
    const allowed = [];
    for (let i = 0; i < 4; i++) allowed.push(await counter.hit('203.0.113.9', 3));
    expect(allowed).toEqual([true, true, true, false]);
    expect(await counter.hit('203.0.113.10', 3)).toBe(true);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/each API instance counts on its own/);
    expect(String(warn.mock.calls[0][0])).not.toContain('203.0.113');
  });

  it("serves @fastify/rate-limit's store contract, one window per route", async () => {
    const Store = windows.fastifyStore('writes');
    const root = new Store({}) as unknown as {
      child(route: unknown): {
        incr(key: string, done: (err: Error | null, res?: { current: number; ttl: number }) => void, windowMs: number): void;
      };
    };
    const leads = root.child({ routeInfo: { method: 'POST', url: '/api/leads' } });
    const gate = root.child({ routeInfo: { method: 'POST', url: '/api/invitation-gate' } });
    const incr = (store: typeof leads) =>
      new Promise<{ current: number; ttl: number }>((resolve, reject) =>
        store.incr('198.51.100.1', (err, res) => (err ? reject(err) : resolve(res!)), 60_000),
      );
    expect((await incr(leads)).current).toBe(1);
    expect(await incr(leads)).toEqual({ current: 2, ttl: expect.any(Number) });
    expect((await incr(gate)).current).toBe(1);
  });
});
