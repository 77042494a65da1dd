import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { AppConfig } from '@core/config/app-config';
import { MembershipNotice, MembershipWebhookClient } from './membership-webhook.client';

const SECRET = `whsec_${Buffer.from('a members area signing key, 32 b').toString('base64')}`;
const notice: MembershipNotice = {
  type: 'membership.access_ended',
  timestamp: '2026-11-27T10:00:00.000Z',
  data: {
    membership_id: '7d8a0c1e-0f7b-4d0e-9a51-3c1f2b9e6a10',
    sequence: 2,
    status: 'ended',
    email: 'buyer@example.com',
    name: 'Buy Er',
    product: 'clear',
    plan: 'standard',
    order_id: null,
    livemode: true,
  },
};

/** What one POST brought: the exact bytes and the headers, as a receiver sees them. */
let received: Array<{ raw: string; headers: IncomingHttpHeaders }> = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ raw: Buffer.concat(chunks).toString(), headers: req.headers });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/clear`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received = [];
});

const client = () =>
  new MembershipWebhookClient(Object.assign(new AppConfig(), { MEMBERSHIP_WEBHOOK_URL: url, MEMBERSHIP_WEBHOOK_SECRET: SECRET }));

/** The three Standard Webhooks headers of a delivery, as a receiver hands them to the library. */
const signed = (headers: IncomingHttpHeaders) => ({
  'webhook-id': String(headers['webhook-id']),
  'webhook-timestamp': String(headers['webhook-timestamp']),
  'webhook-signature': String(headers['webhook-signature']),
});

describe('membership webhook (Standard Webhooks)', () => {
  it("is signed so the standardwebhooks library's Webhook.verify accepts it under the whsec_ secret", async () => {
    const key = `membership-webhook:${notice.data.membership_id}:1`;
    await expect(client().send(notice, key)).resolves.toEqual({ outcome: 'done', detail: { status: 204 } });

    const [{ raw, headers }] = received;
    expect(headers['webhook-id']).toBe(key);
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(headers['x-clear-signature']).toBeUndefined();
    expect(new Webhook(SECRET).verify(raw, signed(headers))).toEqual(notice);
  });

  it('fails verification when the body, the id or the secret differs from what was signed', async () => {
    await client().send(notice, `membership-webhook:${notice.data.membership_id}:1`);
    const [{ raw, headers }] = received;
    const tampered = raw.replace('"status":"ended"', '"status":"active"');
    expect(tampered).not.toBe(raw);
    expect(() => new Webhook(SECRET).verify(tampered, signed(headers))).toThrow('No matching signature found');
    expect(() =>
      new Webhook(SECRET).verify(raw, { ...signed(headers), 'webhook-id': `membership-webhook:${notice.data.membership_id}:2` }),
    ).toThrow('No matching signature found');
    const otherSecret = `whsec_${Buffer.from('another members area signing key').toString('base64')}`;
    expect(() => new Webhook(otherSecret).verify(raw, signed(headers))).toThrow('No matching signature found');
  });

  it('is not configured without both the URL and the secret, and then refuses to send', async () => {
    const config = Object.assign(new AppConfig(), {
      MEMBERSHIP_WEBHOOK_URL: 'http://127.0.0.1:9/hook',
      MEMBERSHIP_WEBHOOK_SECRET: undefined,
    });
    const unconfigured = new MembershipWebhookClient(config);
    expect(unconfigured.configured).toBe(false);
    await expect(unconfigured.send(notice, 'key')).rejects.toThrow('Membership webhook is not configured');
  });
});
