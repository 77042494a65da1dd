import { randomBytes } from 'node:crypto';
import { fuzzContext } from './support/fuzz-context';
import { closeAgent, pool, RawRequest, RawResponse, send, unreadableMessage } from './support/http';
import { FuzzContext, JSON_ENDPOINTS, malformedRequests } from './support/malformed';
import { FuzzStack, RAISED_LIMITS, startFuzzStack } from './support/fuzz-stack';
import { malformedStoredData, outboxState } from './support/stored-data';

/**
 * The compiled API with a pool of three connections (one kept for the money path) that waits
 * almost nothing for one, under a burst of well-formed and malformed requests to every endpoint:
 * much of it is refused as load shed. Whatever is refused, and wherever in a request the pool
 * says no, the answer is a readable 503 with Retry-After, never a 500; and what was accepted is
 * still done, every owed job finishing (sandbox webhooks refused along the way are delivered again).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_251_125);
const ROUNDS = 20;
const MALFORMED = 400;
const WEBHOOK_SECRET = `whsec_shed${randomBytes(12).toString('hex')}`;
const METRICS_TOKEN = `shed-fuzz-${randomBytes(16).toString('hex')}`;

let stack: FuzzStack;
let ctx: FuzzContext;
const startedAt = new Date();

/** Well-formed requests to every JSON endpoint, verification polls and token checks, interleaved. */
function wellFormed(context: FuzzContext): RawRequest[] {
  const adminHeaders = { cookie: context.admin.cookie, 'x-csrf-token': context.admin.csrfToken };
  const requests: RawRequest[] = [];
  for (let n = 0; n < ROUNDS; n++) {
    for (const endpoint of JSON_ENDPOINTS) {
      requests.push({
        label: `well-formed ${endpoint.method} ${endpoint.path}`,
        method: endpoint.method,
        path: endpoint.path.replace(':id', context.testimonialId),
        headers: { 'content-type': 'application/json', ...(endpoint.admin ? adminHeaders : {}) },
        body: JSON.stringify(endpoint.valid(context, n)),
      });
    }
    requests.push(
      { label: 'verification poll', method: 'GET', path: `/api/verify-payment/${context.paymentIntentId}` },
      { label: 'token check', method: 'GET', path: `/api/validate-token/${context.accessToken}` },
    );
  }
  return requests;
}

function interleave<T>(a: T[], b: T[]): T[] {
  return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => [a[i], b[i]])
    .flat()
    .filter((item): item is T => item !== undefined);
}

/** What is wrong with one answer, or null: any 5xx but a readable 503 with Retry-After, or an unreadable 4xx (bad-input.spec.ts's rules). */
function verdict(req: RawRequest, res: RawResponse): string | null {
  if (res.status >= 500 && (res.status !== 503 || !res.headers['retry-after'])) return `${res.status}: ${res.text.slice(0, 200)}`;
  if (res.status < 400 || req.method === 'HEAD') return null;
  const pagePath = !req.path.startsWith('/api') && (req.method === 'GET' || req.method === 'HEAD');
  if (pagePath && String(res.headers['content-type']).startsWith('text/html')) return null;
  let body: { message?: unknown };
  try {
    body = JSON.parse(res.text) as { message?: unknown };
  } catch {
    return `${res.status} without a JSON body: ${JSON.stringify(res.text.slice(0, 120))}`;
  }
  const unreadable = unreadableMessage(body.message);
  return unreadable && `${res.status} ${unreadable}: ${JSON.stringify(body.message)}`;
}

/** The sum of funnel_http_shed_total over its labels. */
async function shedTotal(): Promise<number> {
  const res = await send(stack.url, {
    label: 'metrics',
    method: 'GET',
    path: '/api/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(res.status).toBe(200);
  return res.text
    .split('\n')
    .filter((line) => line.startsWith('funnel_http_shed_total{'))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

beforeAll(async () => {
  stack = await startFuzzStack({
    ...RAISED_LIMITS,
    SANDBOX_WEBHOOK_SECRET: WEBHOOK_SECRET,
    METRICS_TOKEN,
    DATABASE_POOL_SIZE: '3',
    SHED_MONEY_RESERVED_CONNECTIONS: '1',
    SHED_WAIT_MS: '5',
    DATABASE_ACQUIRE_TIMEOUT_MS: '100',
    // Refused webhook deliveries retry quickly, and long enough to get through after the burst.
    JOB_RETRY_HORIZON_S: '60',
    JOB_BACKOFF_MS: '100',
    JOB_BACKOFF_MAX_MS: '1000',
    OUTBOX_POLL_MS: '50',
  });
  ctx = await fuzzContext(stack.url, WEBHOOK_SECRET);
});

afterAll(async () => {
  closeAgent();
  await stack?.stop();
});

describe('load shedding under a burst to every endpoint', () => {
  it('refuses with a readable 503 and Retry-After, never a 500', async () => {
    const shedBefore = await shedTotal();
    const requests = interleave(wellFormed(ctx), malformedRequests(ctx, MALFORMED, SEED));
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    await pool(requests, 16, async (req) => {
      try {
        const res = await send(stack.url, req);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const problem = verdict(req, res);
        if (problem) problems.push(`${req.label} ${req.method} ${req.path.slice(0, 80)} → ${problem}`);
      } catch (err) {
        problems.push(`${req.label} ${req.method} ${req.path.slice(0, 80)} → no answer: ${(err as Error).message}`);
      }
    });
    expect([...new Set(problems)].slice(0, 20)).toEqual([]);
    // The burst did saturate the pool: some requests were shed, which is what is under test.
    expect(statuses.get(503) ?? 0).toBeGreaterThan(0);
    expect(await shedTotal()).toBeGreaterThan(shedBefore);
  });

  it('is still up afterwards, stored nothing malformed, and finishes every job it owes', async () => {
    expect(stack.api.child.exitCode).toBeNull();
    expect(stack.worker?.child.exitCode).toBeNull();
    const health = await send(stack.url, { label: 'health', method: 'GET', path: '/api/health' });
    expect(health.status).toBe(200);
    expect(await malformedStoredData(stack.env.DATABASE_URL as string, startedAt)).toEqual([]);
    const deadline = Date.now() + 60_000;
    let state = await outboxState(stack.env.DATABASE_URL as string, startedAt);
    while (state.open > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      state = await outboxState(stack.env.DATABASE_URL as string, startedAt);
    }
    expect(state).toEqual({ open: 0, failed: [] });
  });
});
