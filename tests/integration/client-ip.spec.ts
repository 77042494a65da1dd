import request from 'supertest';
import { Stack, startStack } from './support/stack';

/** Posts leads as a client behind X-Forwarded-For and returns the statuses, in order. */
async function post(stack: Stack, forwardedFor: string | null, times: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) {
    const req = request(stack.url).post('/api/leads');
    if (forwardedFor !== null) req.set('X-Forwarded-For', forwardedFor);
    statuses.push((await req.send({ email: `ip-${Math.random().toString(36).slice(2)}@example.com` })).status);
  }
  return statuses;
}

describe.each([
  ['a hop count', '1'],
  ['the proxy address', '127.0.0.1'],
  ['a CIDR', '127.0.0.0/8'],
])('rate limits behind one proxy (TRUST_PROXY as %s)', (_label, trustProxy) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ TRUST_PROXY: trustProxy, RATE_LIMIT_WRITES: '2' }, { worker: false });
  });
  afterAll(() => stack?.stop());

  it('gives each client address behind the proxy its own bucket', async () => {
    expect(await post(stack, '203.0.113.1', 3)).toEqual([201, 201, 429]);
    expect(await post(stack, '203.0.113.2', 2)).toEqual([201, 201]);
  });

  it('keys on the address the proxy saw, not on what the client wrote before it', async () => {
    // The proxy appends the real address; a client-supplied value in front of it does not count.
    expect(await post(stack, '198.51.100.9', 2)).toEqual([201, 201]);
    expect(await post(stack, '10.9.9.9, 198.51.100.9', 1)).toEqual([429]);
    expect(await post(stack, '10.9.9.8, 198.51.100.9', 1)).toEqual([429]);
  });
});

describe('rate limits with no trusted proxy (TRUST_PROXY=false)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ TRUST_PROXY: 'false', RATE_LIMIT_WRITES: '2' }, { worker: false });
  });
  afterAll(() => stack?.stop());

  it('ignores a spoofed X-Forwarded-For: the connection address is the bucket', async () => {
    expect(await post(stack, '203.0.113.1', 2)).toEqual([201, 201]);
    expect(await post(stack, '203.0.113.2', 1)).toEqual([429]);
    expect(await post(stack, null, 1)).toEqual([429]);
  });
});
