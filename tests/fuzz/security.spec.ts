import { randomBytes, randomInt } from 'node:crypto';
import { planOf } from '@contracts/plans';
import { closeAgent, RawRequest, RawResponse, send, unreadableMessage } from './support/http';
import { FuzzStack, startFuzzStack } from './support/fuzz-stack';

/** The one-time plan these checkouts buy, from the site folder. */
const FULL_PAYMENT = planOf('full-payment');

const LIMIT = 3;
let stack: FuzzStack;

/**
 * A client address of its own for each use: the limits are counted in the shared Redis, where
 * other specs' clients (127.0.0.1 included) may still have a window open.
 */
const freshClient = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;

const get = (path: string, headers: Record<string, string> = {}): Promise<RawResponse> =>
  send(stack.url, { label: path, method: 'GET', path, headers });

function post(path: string, body: unknown, client: string): RawRequest {
  return {
    label: path,
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
    body: JSON.stringify(body),
  };
}

const email = () => `limit.${randomBytes(5).toString('hex')}@example.com`;

beforeAll(async () => {
  // Behind one trusted proxy (the loopback), so each test can be a client of its own via X-Forwarded-For.
  stack = await startFuzzStack(
    {
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_WRITES: String(LIMIT),
      RATE_LIMIT_TOKEN_CHECKS: String(LIMIT),
      RATE_LIMIT_INTENTS_PER_CLIENT: String(LIMIT),
      RATE_LIMIT_INTENTS_PER_EMAIL: '1000',
      ADMIN_LOGINS_PER_CLIENT: String(LIMIT),
      ADMIN_LOGINS_PER_EMAIL: '1000',
    },
    { worker: false },
  );
});

afterAll(async () => {
  closeAgent();
  await stack?.stop();
});

describe('security headers', () => {
  it.each(['/', '/checkout?plan=standard', '/api/health', '/api/nothing-here'])(
    '%s carries the CSP and the other helmet headers',
    async (path) => {
      const res = await get(path);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toMatch(/script-src 'self' [^;]*https:\/\/js\.stripe\.com/);
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
      expect(csp).toMatch(/frame-src [^;]*https:\/\/js\.stripe\.com/);
      expect(csp).toMatch(/connect-src 'self' [^;]*https:\/\/api\.stripe\.com/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      // helmet's default: no page of the funnel leaks its address (query strings carry e-mails) to another site.
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      // Browsers honour HSTS only over HTTPS, so sending it always is harmless and covers TLS at a proxy.
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
      expect(res.headers['x-powered-by']).toBeUndefined();
    },
  );
});

describe('CORS', () => {
  it('gives another origin no Access-Control-Allow-Origin, on a request or a preflight', async () => {
    const simple = await get('/api/testimonials/featured', { origin: 'https://evil.example' });
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await send(stack.url, {
      label: 'preflight',
      method: 'OPTIONS',
      path: '/api/leads',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("allows the site's own origin (PUBLIC_URL)", async () => {
    const origin = new URL(stack.env.PUBLIC_URL as string).origin;
    const simple = await get('/api/testimonials/featured', { origin });
    expect(simple.headers['access-control-allow-origin']).toBe(origin);
    const preflight = await send(stack.url, {
      label: 'preflight',
      method: 'OPTIONS',
      path: '/api/leads',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(origin);
  });
});

describe(`rate limits (${LIMIT} per window here)`, () => {
  /** Sends `times` requests as one client; returns the statuses and the last answer. */
  async function burst(make: (i: number) => RawRequest, times: number): Promise<{ statuses: number[]; last: RawResponse }> {
    const statuses: number[] = [];
    let last: RawResponse | undefined;
    for (let i = 0; i < times; i++) {
      last = await send(stack.url, make(i));
      statuses.push(last.status);
    }
    return { statuses, last: last as RawResponse };
  }

  function expectLimited(result: { statuses: number[]; last: RawResponse }, allowed: number): void {
    expect(result.statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(allowed));
    expect(result.statuses[LIMIT]).toBe(429);
    const body = JSON.parse(result.last.text) as { message?: unknown };
    expect(unreadableMessage(body.message)).toBeNull();
    expect(String(body.message)).toMatch(/too many/i);
  }

  it('POST /api/leads', async () => {
    const client = freshClient();
    expectLimited(await burst(() => post('/api/leads', { email: email() }, client), LIMIT + 1), 201);
  });

  it('POST /api/invitation-gate', async () => {
    const client = freshClient();
    expectLimited(await burst(() => post('/api/invitation-gate', { name: 'Limit Tester', email: email() }, client), LIMIT + 1), 201);
  });

  it('GET /api/validate-token/:token (guessing tokens)', async () => {
    const client = freshClient();
    expectLimited(
      await burst(
        () => ({
          label: 'token',
          method: 'GET',
          path: `/api/validate-token/${randomBytes(32).toString('base64url')}`,
          headers: { 'x-forwarded-for': client },
        }),
        LIMIT + 1,
      ),
      404,
    );
  });

  it('POST /api/create-payment-intent (card testing), one client with a new e-mail each time', async () => {
    const client = freshClient();
    expectLimited(
      await burst(
        () =>
          post(
            '/api/create-payment-intent',
            { email: email(), name: 'Limit Tester', source: 'clear', amount: FULL_PAYMENT.amount, plan: FULL_PAYMENT.name },
            client,
          ),
        LIMIT + 1,
      ),
      200,
    );
  });

  it('POST /api/admin/login (password guessing)', async () => {
    const client = freshClient();
    expectLimited(await burst(() => post('/api/admin/login', { email: email(), password: 'wrong password' }, client), LIMIT + 1), 401);
  });

  it('counts each client on its own: another address is still served', async () => {
    const first = freshClient();
    await burst(() => post('/api/leads', { email: email() }, first), LIMIT + 1);
    expect((await send(stack.url, post('/api/leads', { email: email() }, freshClient()))).status).toBe(201);
  });
});
