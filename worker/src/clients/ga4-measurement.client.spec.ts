import { loadConfig } from '@core/config/app-config';
import { FakeGa4MpServer } from '../../../tests/fakes/ga4-mp-server';
import { derivedClientId, ga4PurchaseRequest, ga4RefundRequest, ga4SessionIdFromCookie, Ga4MeasurementClient, Ga4Purchase } from './ga4-measurement.client';
import { NotConfiguredError, ProviderUnavailableError } from './provider-call';

const base = { DATABASE_URL: 'postgres://u:p@localhost:5432/db', REDIS_URL: 'redis://localhost:6379' };
const SECRET = 'mp-secret-value';

const purchase = (overrides: Partial<Ga4Purchase> = {}): Ga4Purchase => ({
  transactionId: 'pi_123',
  clientId: '1234567890.1700000000',
  userId: 'lead-1',
  sessionId: '1700000123',
  amountCents: 55_000,
  currency: 'USD',
  planId: '2-month',
  planName: '2-Month Plan',
  eventTime: new Date(Date.now() - 60_000),
  ...overrides,
});

describe('Ga4MeasurementClient', () => {
  const fake = new FakeGa4MpServer();
  let url: string;
  const client = (env: Record<string, string> = {}) =>
    new Ga4MeasurementClient(loadConfig({ ...base, GA4_MP_URL: url, GA4_MEASUREMENT_ID: 'G-TEST123', GA4_API_SECRET: SECRET, ...env }));

  beforeAll(async () => {
    url = await fake.start();
  });
  afterEach(() => fake.reset());
  afterAll(() => fake.stop());

  it('posts one purchase to /mp/collect with the measurement id, the secret, the stored ids and the item', async () => {
    const sent = purchase();
    await expect(client().sendPurchase(sent)).resolves.toEqual({ outcome: 'done', detail: { status: 204 } });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({
      method: 'POST',
      path: '/mp/collect',
      query: { measurement_id: 'G-TEST123' },
      secretsPresent: ['api_secret'],
    });
    expect(request.body).toEqual({
      client_id: '1234567890.1700000000',
      user_id: 'lead-1',
      timestamp_micros: sent.eventTime.getTime() * 1000,
      events: [
        {
          name: 'purchase',
          params: {
            transaction_id: 'pi_123',
            value: 550,
            currency: 'USD',
            items: [{ item_id: '2-month', item_name: '2-Month Plan', price: 550, quantity: 1 }],
            session_id: '1700000123',
            engagement_time_msec: 1,
          },
        },
      ],
    });
  });

  it('derives the same cookie-shaped client id for every send of one transaction when no _ga was stored', async () => {
    const sent = purchase({ clientId: undefined, userId: undefined, sessionId: undefined });
    await client().sendPurchase(sent);
    await client().sendPurchase(sent);
    const [first, second] = fake.events();
    expect(first.clientId).toMatch(/^\d+\.\d+$/);
    expect(first.clientId).toBe(second.clientId);
    expect(first.clientId).toBe(derivedClientId('pi_123', sent.eventTime));
    expect(derivedClientId('pi_124', sent.eventTime)).not.toBe(first.clientId);
    expect(first.userId).toBeUndefined();
    expect(first.event.params).not.toHaveProperty('session_id');
  });

  it("sends the value in whole units of the currency: yen are not hundredths", () => {
    expect(ga4PurchaseRequest(purchase({ amountCents: 9_700, currency: 'JPY' })).events[0].params).toMatchObject({ value: 9_700, currency: 'JPY' });
    expect(ga4PurchaseRequest(purchase({ amountCents: 8_950, currency: 'EUR' })).events[0].params.value).toBe(89.5);
    const refund = { transactionId: 'pi_123', amountCents: 9_700, currency: 'JPY', eventTime: new Date() };
    expect(ga4RefundRequest(refund).events[0].params.value).toBe(9_700);
  });

  it('lists an add-on (order bump) as a second item, each item at its own price, the value their sum', () => {
    const addOn = { id: 'workbook', name: 'Workbook', amountCents: 2_700 };
    expect(ga4PurchaseRequest(purchase({ amountCents: 57_700, addOn })).events[0].params).toMatchObject({
      value: 577,
      items: [
        { item_id: '2-month', item_name: '2-Month Plan', price: 550, quantity: 1 },
        { item_id: 'workbook', item_name: 'Workbook', price: 27, quantity: 1 },
      ],
    });
  });

  it('leaves out timestamp_micros for a payment older than GA4 accepts (72 hours)', () => {
    const old = purchase({ eventTime: new Date(Date.now() - 73 * 3600 * 1000) });
    expect(ga4PurchaseRequest(old)).not.toHaveProperty('timestamp_micros');
  });

  it('is not configured without a measurement id or a secret, and then sends nothing', async () => {
    for (const env of [{ GA4_MEASUREMENT_ID: '' }, { GA4_API_SECRET: '' }] as Record<string, string>[]) {
      const unconfigured = client(env);
      expect(unconfigured.configured).toBe(false);
      await expect(unconfigured.sendPurchase(purchase())).rejects.toBeInstanceOf(NotConfiguredError);
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('throws on 5xx and 429, rejects other 4xx, and never names the secret', async () => {
    const messages: string[] = [];
    fake.failNextRequests(1, 500);
    messages.push(
      await client()
        .sendPurchase(purchase())
        .then(JSON.stringify, (err: Error) => `${err.constructor.name}: ${err.message}`),
    );
    fake.failNextRequests(1, 429);
    messages.push(
      await client()
        .sendPurchase(purchase())
        .then(JSON.stringify, (err: Error) => `${err.constructor.name}: ${err.message}`),
    );
    fake.failNextRequests(1, 403);
    const rejected = await client().sendPurchase(purchase());
    messages.push(JSON.stringify(rejected));
    await fake.stop();
    try {
      messages.push(
        await client()
          .sendPurchase(purchase())
          .then(JSON.stringify, (err: Error) => `${err.constructor.name}: ${err.message}`),
      );
    } finally {
      url = await fake.start(Number(new URL(url).port));
    }
    expect(messages.slice(0, 2)).toEqual([
      `${ProviderUnavailableError.name}: GA4 Measurement Protocol answered 500`,
      `${ProviderUnavailableError.name}: GA4 Measurement Protocol answered 429`,
    ]);
    expect(rejected).toEqual({ outcome: 'rejected', reason: 'GA4 Measurement Protocol answered 403', detail: { status: 403 } });
    expect(messages[3]).toMatch(/^ProviderUnavailableError: GA4 Measurement Protocol unreachable \([A-Z_]+\)$/);
    for (const message of messages) expect(message).not.toContain(SECRET);
    expect(JSON.stringify(fake.requests)).not.toContain(SECRET);
  });
});

describe('ga4SessionIdFromCookie', () => {
  it.each([
    ['GS1.1.1700000123.4.1.1700000456.0.0.0', '1700000123'],
    ['GS2.1.s1700000123$o4$g1$t1700000456$j0$l0$h0', '1700000123'],
    ['garbage', undefined],
  ])('reads %p as %p', (cookie, expected) => {
    expect(ga4SessionIdFromCookie(cookie)).toBe(expected);
  });
});
