import { randomBytes } from 'node:crypto';
import { fuzzContext } from './support/fuzz-context';
import { closeAgent, pool, RawRequest, RawResponse, send, unreadableMessage } from './support/http';
import { FuzzContext, malformedRequests, oversizeRequests } from './support/malformed';
import { FuzzStack, RAISED_LIMITS, startFuzzStack } from './support/fuzz-stack';
import { malformedStoredData, outboxState } from './support/stored-data';

/** FUZZ_SEED reruns another sequence; a failure message names the seed it came from. */
const SEED = Number(process.env.FUZZ_SEED ?? 20_251_111);
const GENERATED = Number(process.env.FUZZ_COUNT ?? 2400);
/** Routes that take a body (each endpoint's JSON body and the webhook), each refusing 1.2 MB of it. */
const BODY_ROUTES = 15;
const WEBHOOK_SECRET = `whsec_fuzz${randomBytes(12).toString('hex')}`;

let stack: FuzzStack;
let ctx: FuzzContext;
const startedAt = new Date();

/** What is wrong with one answer, or null: a 5xx, or a 4xx a person could not read. */
function verdict(req: RawRequest, res: RawResponse): string | null {
  if (res.status >= 500) return `${res.status}: ${res.text.slice(0, 200)}`;
  if (res.status < 400 || req.method === 'HEAD') return null;
  // As the server decides (case-sensitive): /API/LEADS is a page path and gets the SPA's 404 page.
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

interface Failure {
  label: string;
  request: string;
  problem: string;
}

async function fire(requests: RawRequest[], concurrency: number): Promise<{ failures: Failure[]; statuses: Map<number, number> }> {
  const failures: Failure[] = [];
  const statuses = new Map<number, number>();
  await pool(requests, concurrency, async (req) => {
    let problem: string | null;
    try {
      const res = await send(stack.url, req);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      problem = verdict(req, res);
    } catch (err) {
      problem = `no answer: ${(err as Error).message}`;
    }
    if (problem) failures.push({ label: req.label, request: `${req.method} ${req.path.slice(0, 120)}`, problem });
  });
  return { failures, statuses };
}

/** One example per kind of failure (route and problem), so one bug does not hide the others. */
function report(failures: Failure[]): string {
  const kinds = new Map<string, { example: Failure; count: number }>();
  for (const failure of failures) {
    const kind = `${failure.request.split(/[?]/)[0].replace(/\/[^/]*$/, '/…')} ${failure.problem.slice(0, 40)}`;
    const seen = kinds.get(kind);
    if (seen) seen.count++;
    else kinds.set(kind, { example: failure, count: 1 });
  }
  const lines = [...kinds.values()].map(
    ({ example: f, count }) => `- ${count}× ${f.label.slice(0, 160)}\n    ${f.request}\n    → ${f.problem.slice(0, 300)}`,
  );
  return `${failures.length} bad answers (seed ${SEED}), ${kinds.size} kinds:\n${lines.join('\n')}`;
}

beforeAll(async () => {
  stack = await startFuzzStack({
    ...RAISED_LIMITS,
    SANDBOX_WEBHOOK_SECRET: WEBHOOK_SECRET,
    JOB_RETRY_HORIZON_S: '1',
    JOB_BACKOFF_MS: '100',
    OUTBOX_POLL_MS: '50',
  });
  ctx = await fuzzContext(stack.url, WEBHOOK_SECRET);
});

afterAll(async () => {
  closeAgent();
  await stack?.stop();
});

describe('malformed requests to every public endpoint', () => {
  it(`answers ${GENERATED} generated malformed requests with no 5xx and a readable message on every 4xx`, async () => {
    const requests = malformedRequests(ctx, GENERATED, SEED);
    const { failures, statuses } = await fire(requests, 8);
    expect(report(failures)).toBe(report([]));
    // The generators break requests: most answers are refusals, not accidental successes.
    const refused = [...statuses].filter(([s]) => s >= 400).reduce((n, [, c]) => n + c, 0);
    expect(refused).toBeGreaterThan(GENERATED * 0.7);
  });

  it('refuses bodies over 1 MB on every route that takes a body with 413 and a readable message', async () => {
    const requests = oversizeRequests(ctx);
    const { failures, statuses } = await fire(requests, 2);
    expect(report(failures)).toBe(report([]));
    expect([...statuses.keys()].every((s) => s === 413 || s === 404 || s === 415)).toBe(true);
    expect(statuses.get(413)).toBeGreaterThanOrEqual(BODY_ROUTES);
  });

  it('is still up afterwards: both processes alive, health green', async () => {
    expect(stack.api.child.exitCode).toBeNull();
    expect(stack.worker?.child.exitCode).toBeNull();
    const health = await send(stack.url, { label: 'health', method: 'GET', path: '/api/health' });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toMatchObject({ status: 'ok' });
  });

  it('stored nothing malformed: no control characters, prototype keys or oversized text in any table', async () => {
    expect(await malformedStoredData(stack.env.DATABASE_URL as string, startedAt)).toEqual([]);
  });

  it('the worker finishes every job owed for what the API accepted, none failed', async () => {
    const deadline = Date.now() + 30_000;
    let state = await outboxState(stack.env.DATABASE_URL as string, startedAt);
    while (state.open > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      state = await outboxState(stack.env.DATABASE_URL as string, startedAt);
    }
    expect(state).toEqual({ open: 0, failed: [] });
  });
});
