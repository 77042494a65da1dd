import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import type { SandboxWebhookPayload } from '@contracts/jobs';
import { loadConfig } from '@core/config/app-config';
import { PaymentsConfig, ServerConfig } from '@core/config/config-sections';
import { SandboxWebhookHandler } from './sandbox-webhook.handler';

const base = {
  DATABASE_URL: 'postgres://u:p@localhost:5432/db',
  REDIS_URL: 'redis://localhost:6379',
  SANDBOX_WEBHOOK_SECRET: 'whsec_unitspecsecret000000',
};
const event = {
  id: 'evt_1',
  type: 'payment_intent.succeeded',
  data: { object: { id: 'pi_1' } },
} as unknown as SandboxWebhookPayload['event'];

/** The handler as the worker builds it, from the sections of these settings. */
function handlerWith(env: NodeJS.ProcessEnv): SandboxWebhookHandler {
  const config = loadConfig({ ...base, ...env });
  return new SandboxWebhookHandler(PaymentsConfig.of(config), ServerConfig.of(config));
}

describe('SandboxWebhookHandler.deliver', () => {
  const received: Array<{ path: string; verified: boolean }> = [];
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        let verified = true;
        try {
          Stripe.webhooks.constructEvent(body, String(req.headers['stripe-signature']), base.SANDBOX_WEBHOOK_SECRET);
        } catch {
          verified = false;
        }
        received.push({ path: req.url ?? '', verified });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => received.splice(0));
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('posts the signed event to the webhook endpoint at PUBLIC_URL', async () => {
    const service = handlerWith({ PUBLIC_URL: url });
    await expect(service.deliver({ event })).resolves.toBe('delivered');
    expect(received).toEqual([{ path: '/api/webhooks/stripe', verified: true }]);
  });

  it('posts to INTERNAL_API_URL instead when it is set (PUBLIC_URL is the browser’s address)', async () => {
    const service = handlerWith({ PUBLIC_URL: 'http://localhost:1', INTERNAL_API_URL: url });
    await expect(service.deliver({ event })).resolves.toBe('delivered');
    expect(received).toEqual([{ path: '/api/webhooks/stripe', verified: true }]);
  });
});
