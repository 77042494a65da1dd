import Fastify from 'fastify';
import { fastifyTrustProxy } from './trust-proxy';

/** The client address Fastify derives for a request that came through `forwardedFor`. */
async function clientAddress(trustProxy: Parameters<typeof fastifyTrustProxy>[0], forwardedFor: string): Promise<string> {
  const app = Fastify({ trustProxy: fastifyTrustProxy(trustProxy) });
  app.get('/', (request) => ({ ip: request.ip }));
  const response = await app.inject({ url: '/', headers: { 'x-forwarded-for': forwardedFor } });
  await app.close();
  return response.json<{ ip: string }>().ip;
}

describe('fastifyTrustProxy', () => {
  it('trusts exactly the last N hops for a hop count', async () => {
    // The injected request comes from 127.0.0.1 (the one proxy); the client spoofed 6.6.6.6.
    expect(await clientAddress(1, '6.6.6.6, 203.0.113.9')).toBe('203.0.113.9');
    expect(await clientAddress(2, '6.6.6.6, 203.0.113.9')).toBe('6.6.6.6');
  });

  it('passes addresses and booleans through', async () => {
    expect(await clientAddress(['loopback'], '6.6.6.6, 203.0.113.9')).toBe('203.0.113.9');
    expect(await clientAddress(false, '203.0.113.9')).toBe('127.0.0.1');
  });
});
