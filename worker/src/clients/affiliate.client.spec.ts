import { loadConfig } from '@core/config/app-config';
import { FakeAffiliateServer } from '../../../tests/fakes/affiliate-server';
import { AffiliateClient, AffiliateSale, AffiliateUnavailableError } from './affiliate.client';

const base = { DATABASE_URL: 'postgres://u:p@localhost:5432/db', REDIS_URL: 'redis://localhost:6379' };

const sale: AffiliateSale = {
  email: 'buyer@example.com',
  uid: 'lead-1',
  amountCents: 55_000,
  eventId: 'pi_123',
  plan: '2-month',
  tid: 'tid-0123456789abcdefghij',
  refId: 'promo7',
};

describe('AffiliateClient.trackSale', () => {
  const fake = new FakeAffiliateServer();
  let client: AffiliateClient;

  beforeAll(async () => {
    const url = await fake.start();
    client = new AffiliateClient(loadConfig({ ...base, AFFILIATE_API_URL: url, AFFILIATE_API_KEY: 'fp-key' }));
  });
  afterEach(() => fake.reset());
  afterAll(() => fake.stop());

  it('posts the sale as FirstPromoter expects: form fields, amount in cents, event id, key headers', async () => {
    await expect(client.trackSale(sale, 'affiliate-sale:order-1')).resolves.toEqual({ outcome: 'done', detail: { status: 200 } });
    expect(fake.sales()).toHaveLength(1);
    expect(fake.sales()[0]).toMatchObject({
      path: '/api/v1/track/sale',
      apiKey: 'fp-key',
      idempotencyKey: 'affiliate-sale:order-1',
      params: {
        email: 'buyer@example.com',
        uid: 'lead-1',
        amount: '55000',
        event_id: 'pi_123',
        plan: '2-month',
        tid: 'tid-0123456789abcdefghij',
        ref_id: 'promo7',
      },
    });
    expect(fake.signups()).toHaveLength(0);
  });

  it('leaves out the optional fields it was not given', async () => {
    await client.trackSale({ email: 'buyer@example.com', amountCents: 9700, eventId: 'pi_9', plan: 'standard' }, 'k');
    expect(Object.keys(fake.sales()[0].params).sort()).toEqual(['amount', 'email', 'event_id', 'plan']);
  });

  it('takes an already-tracked event id, or a repeated key, as done: one sale at the service', async () => {
    await client.trackSale(sale, 'affiliate-sale:order-1');
    await expect(client.trackSale(sale, 'affiliate-sale:order-1')).resolves.toMatchObject({ outcome: 'duplicate' });
    await expect(client.trackSale(sale, 'another-key')).resolves.toMatchObject({ outcome: 'duplicate' });
    expect(fake.sales()).toHaveLength(1);
    expect(fake.saleAttempts().map((a) => a.answer)).toEqual(['ok', 'duplicate', 'duplicate']);
  });

  it('tracks a second payment by the same buyer as its own sale', async () => {
    await client.trackSale(sale, 'affiliate-sale:order-1');
    await expect(client.trackSale({ ...sale, eventId: 'pi_456' }, 'affiliate-sale:order-2')).resolves.toMatchObject({ outcome: 'done' });
    expect(fake.sales().map((c) => c.params.event_id)).toEqual(['pi_123', 'pi_456']);
  });

  it('is tracked after a lost response by the retry, which the service answers "duplicate"', async () => {
    fake.loseNextResponses(1);
    await expect(client.trackSale(sale, 'affiliate-sale:order-1')).rejects.toBeInstanceOf(AffiliateUnavailableError);
    await expect(client.trackSale(sale, 'affiliate-sale:order-1')).resolves.toMatchObject({ outcome: 'duplicate' });
    expect(fake.sales()).toHaveLength(1);
  });

  it('throws on 5xx and 429 (retryable) and rejects other 4xx, with no e-mail in the message', async () => {
    fake.failNextRequests(1, 503);
    const unavailable = await client.trackSale(sale, 'k1').catch((err: Error) => err);
    expect(unavailable).toBeInstanceOf(AffiliateUnavailableError);
    expect((unavailable as Error).message).not.toContain('buyer@example.com');

    fake.failNextRequests(1, 429);
    await expect(client.trackSale(sale, 'k2')).rejects.toBeInstanceOf(AffiliateUnavailableError);

    fake.failNextRequests(1, 400);
    const rejected = await client.trackSale(sale, 'k3');
    expect(rejected).toEqual({ outcome: 'rejected', reason: 'Affiliate service answered 400', detail: { status: 400 } });
    expect(fake.sales()).toHaveLength(0);
  });

  it('keeps signups working beside sales: a buyer tracked at opt-in still gets a sale', async () => {
    await client.trackSignup({ email: 'buyer@example.com', uid: 'lead-1' }, 'affiliate-signup:lead-1');
    await client.trackSale(sale, 'affiliate-sale:order-1');
    expect(fake.signups()).toHaveLength(1);
    expect(fake.sales()).toHaveLength(1);
    expect(fake.calls).toHaveLength(2);
  });
});
