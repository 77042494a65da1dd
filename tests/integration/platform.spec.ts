import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { RunningRedis, startRedis } from '../../scripts/lib/redis';
import { checkRedisPolicy } from '@core/queue/redis-policy.check';
import { freePort, Stack, startStack } from './support/stack';

/** Writes whose request has no body at all: the route, the session cookie and the CSRF header say everything. */
const BODILESS_WRITES = [
  'POST /api/admin/logout',
  'POST /api/account/logout',
  'POST /api/admin/exhausted-jobs/{id}/retry',
  'POST /api/admin/coupons/{id}/deactivate',
  'POST /api/admin/billing/orders/{orderId}/stop-instalments',
];

describe('platform: health, docs and security baseline', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ PUBLIC_URL: 'https://funnel.example.com' }, { worker: false });
  });
  afterAll(() => stack?.stop());

  it('reports readiness with Postgres, Redis and queue depth', async () => {
    const res = await request(stack.url).get('/api/health').expect(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      postgres: 'up',
      redis: 'up',
      queues: {
        tracking: { waiting: expect.any(Number), active: expect.any(Number), delayed: expect.any(Number), failed: expect.any(Number) },
      },
      outboxPending: expect.any(Number),
    });
    await request(stack.url).get('/api/health/live').expect(200, { status: 'ok' });
  });

  it('serves the OpenAPI description', async () => {
    const res = await request(stack.url).get('/api/docs-json').expect(200);
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/api/leads', '/api/health', '/api/testimonials/featured']));
    await request(stack.url).get('/api/docs').expect(200).expect('content-type', /html/);
  });

  it('documents the body of every write that takes one', async () => {
    const { body: doc } = await request(stack.url).get('/api/docs-json').expect(200);
    const writes = Object.entries(doc.paths as Record<string, Record<string, { requestBody?: unknown; parameters?: unknown[] }>>).flatMap(
      ([path, ops]) =>
        Object.entries(ops)
          .filter(([method]) => ['post', 'put', 'patch'].includes(method))
          .map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op })),
    );
    expect(writes.length).toBeGreaterThan(10);
    const undocumented = writes.filter(({ op }) => !op.requestBody).map(({ route }) => route);
    expect(undocumented.filter((route) => !BODILESS_WRITES.includes(route))).toEqual([]);
    const beacon = writes.find(({ route }) => route === 'POST /api/beacon')!.op.requestBody as { content: Record<string, { schema: any }> };
    expect(Object.keys(beacon.content).sort()).toEqual(['application/json', 'text/plain']);
    expect(beacon.content['application/json'].schema.required).toEqual(['type', 'visitorId', 'path']);
  });

  it('documents the 4xx answers of every write, a 400 on every write that takes a body', async () => {
    type Operation = { requestBody?: unknown; responses?: Record<string, unknown> };
    const { body: doc } = await request(stack.url).get('/api/docs-json').expect(200);
    const writes = Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([method]) => ['post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op, answers: Object.keys(op.responses ?? {}) })),
    );
    expect(writes.length).toBeGreaterThan(10);
    expect(writes.filter(({ answers }) => !answers.some((status) => /^4\d\d$/.test(status))).map(({ route }) => route)).toEqual([]);
    expect(writes.filter(({ op, answers }) => op.requestBody && !answers.includes('400')).map(({ route }) => route)).toEqual([]);
  });

  it('sends security headers and no X-Powered-By', async () => {
    const res = await request(stack.url).get('/api/health/live').expect(200);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('allows CORS only for the site origin', async () => {
    const own = await request(stack.url)
      .options('/api/leads')
      .set('Origin', 'https://funnel.example.com')
      .set('Access-Control-Request-Method', 'POST');
    expect(own.headers['access-control-allow-origin']).toBe('https://funnel.example.com');
    const other = await request(stack.url)
      .options('/api/leads')
      .set('Origin', 'https://evil.example.net')
      .set('Access-Control-Request-Method', 'POST');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('echoes a caller-supplied request id and makes one up otherwise', async () => {
    const given = await request(stack.url).get('/api/health/live').set('X-Request-Id', 'trace-123');
    expect(given.headers['x-request-id']).toBe('trace-123');
    const made = await request(stack.url).get('/api/health/live').set('X-Request-Id', 'bad id with spaces');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('readiness while Redis is down', () => {
  let redis: RunningRedis;
  let stack: Stack;
  const dir = mkdtempSync(join(tmpdir(), 'clear-health-redis-'));
  beforeAll(async () => {
    redis = await startRedis({ port: await freePort(), dir, persistent: false });
    stack = await startStack({ REDIS_URL: redis.url }, { worker: false });
  });
  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stays ready (200, degraded), answers quickly, and keeps accepting leads', async () => {
    await redis.stop();
    const started = Date.now();
    const res = await request(stack.url).get('/api/health').expect(200);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(res.body).toMatchObject({ status: 'degraded', postgres: 'up', redis: 'down' });
    await request(stack.url).post('/api/leads').send({ email: 'while-down@example.com' }).expect(201);
  });
});

describe('Redis policy check', () => {
  let redis: RunningRedis;
  const dir = mkdtempSync(join(tmpdir(), 'clear-policy-redis-'));
  beforeAll(async () => {
    redis = await startRedis({ port: await freePort(), dir, persistent: false });
  });
  afterAll(async () => {
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  function recordingLogger() {
    const lines: Array<[string, string]> = [];
    const logger = {
      error: (m: string) => lines.push(['error', m]),
      warn: (m: string) => lines.push(['warn', m]),
      log: (m: string) => lines.push(['log', m]),
    };
    return { lines, logger: logger as unknown as Logger };
  }

  it('warns that persistence is off and accepts noeviction', async () => {
    const client = new Redis(redis.url);
    const { lines, logger } = recordingLogger();
    const report = await checkRedisPolicy(client, logger);
    await client.quit();
    expect(report).toEqual({ evictionPolicy: 'noeviction', persistence: false });
    expect(lines.filter(([level]) => level === 'error')).toEqual([]);
    expect(lines).toContainEqual(['warn', expect.stringMatching(/persistence is off/)]);
  });

  it('reports an eviction policy that would lose jobs', async () => {
    const client = new Redis(redis.url);
    await client.config('SET', 'maxmemory-policy', 'allkeys-lru');
    await client.config('SET', 'appendonly', 'yes');
    const { lines, logger } = recordingLogger();
    const report = await checkRedisPolicy(client, logger);
    await client.quit();
    expect(report).toEqual({ evictionPolicy: 'allkeys-lru', persistence: true });
    expect(lines).toContainEqual(['error', expect.stringMatching(/maxmemory-policy is "allkeys-lru".*noeviction/)]);
  });
});
