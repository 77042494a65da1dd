import { loadConfig } from '@core/config/app-config';
import { FakeMetaCapiServer } from '../../../tests/fakes/meta-capi-server';
import { hashEmail, MetaConversionsClient, metaPurchaseRequest, MetaPurchase } from './meta-conversions.client';
import { NotConfiguredError, ProviderUnavailableError } from './provider-call';

const base = { DATABASE_URL: 'postgres://u:p@localhost:5432/db', REDIS_URL: 'redis://localhost:6379' };
const TOKEN = 'EAAtoken-secret-value';
/** sha256("buyer@example.com"), computed outside the code under test. */
const BUYER_HASH = '6a6c26195c3682faa816966af789717c3bfa834eee6c599d667d2b3429c27cfd';

const purchase: MetaPurchase = {
  eventId: 'purchase-pi_123',
  eventTime: new Date('2025-12-02T10:00:00Z'),
  email: '  Buyer@Example.COM ',
  amountCents: 55_000,
  currency: 'USD',
  plan: '2-Month Plan',
  eventSourceUrl: 'https://www.brightpath.example/success?plan=2-month',
  fbp: 'fb.1.1700000000000.123456789',
  fbc: 'fb.1.1700000000000.AbCdEf',
  clientUserAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
  clientIpAddress: '203.0.113.7',
};

describe('MetaConversionsClient', () => {
  const fake = new FakeMetaCapiServer({ accessToken: TOKEN });
  let url: string;
  const client = (env: Record<string, string> = {}) =>
    new MetaConversionsClient(
      loadConfig({ ...base, META_CAPI_URL: url, META_PIXEL_ID: '1234567890', META_CAPI_ACCESS_TOKEN: TOKEN, ...env }),
    );

  beforeAll(async () => {
    url = await fake.start();
  });
  afterEach(() => fake.reset());
  afterAll(() => fake.stop());

  it('posts one Purchase to /v21.0/{pixel}/events with the browser event id, hashed e-mail and browser ids', async () => {
    await expect(client().sendPurchase(purchase)).resolves.toMatchObject({ outcome: 'done', detail: { status: 200, eventsReceived: 1 } });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v21.0/1234567890/events', query: {}, secretsPresent: ['access_token'] });
    expect(request.body).toEqual({
      data: [
        {
          event_name: 'Purchase',
          event_time: Date.parse('2025-12-02T10:00:00Z') / 1000,
          event_id: 'purchase-pi_123',
          action_source: 'website',
          event_source_url: 'https://www.brightpath.example/success?plan=2-month',
          user_data: {
            em: [BUYER_HASH],
            fbp: 'fb.1.1700000000000.123456789',
            fbc: 'fb.1.1700000000000.AbCdEf',
            client_user_agent: 'Mozilla/5.0 (X11; Linux x86_64)',
            client_ip_address: '203.0.113.7',
          },
          custom_data: { currency: 'USD', value: 550, content_name: '2-Month Plan' },
        },
      ],
    });
    expect(JSON.stringify(request.body)).not.toMatch(/buyer@example\.com/i);
  });

  it('sends the value in whole units of the currency: yen are not hundredths', () => {
    expect(metaPurchaseRequest({ ...purchase, amountCents: 9_700, currency: 'JPY' }).data[0].custom_data).toEqual({
      currency: 'JPY',
      value: 9_700,
      content_name: '2-Month Plan',
    });
  });

  it('lists the plan and an add-on (order bump) in contents, each at its own price', () => {
    const addOn = { id: 'workbook', name: 'Workbook', amountCents: 2_700 };
    expect(metaPurchaseRequest({ ...purchase, amountCents: 57_700, planId: '2-month', addOn }).data[0].custom_data).toEqual({
      currency: 'USD',
      value: 577,
      content_name: '2-Month Plan',
      content_type: 'product',
      contents: [
        { id: '2-month', quantity: 1, item_price: 550 },
        { id: 'workbook', quantity: 1, item_price: 27 },
      ],
    });
  });

  it('hashes the trimmed, lower-cased e-mail', () => {
    expect(hashEmail(' BUYER@example.com\n')).toBe(BUYER_HASH);
  });

  it("sends only the browser ids it has, and the purchase's test event code when it has one", async () => {
    await client({}).sendPurchase({
      ...purchase,
      testEventCode: 'TEST123',
      fbp: undefined,
      fbc: undefined,
      clientIpAddress: undefined,
      eventSourceUrl: undefined,
    });
    const body = fake.requests[0].body as { test_event_code: string; data: Array<Record<string, unknown>> };
    expect(body.test_event_code).toBe('TEST123');
    expect(body.data[0].user_data).toEqual({ em: [BUYER_HASH], client_user_agent: 'Mozilla/5.0 (X11; Linux x86_64)' });
    expect(body.data[0]).not.toHaveProperty('event_source_url');
  });

  it('is not configured without a pixel id or a token, and then sends nothing', async () => {
    for (const env of [{ META_PIXEL_ID: '' }, { META_CAPI_ACCESS_TOKEN: '' }] as Record<string, string>[]) {
      const unconfigured = client(env);
      expect(unconfigured.configured).toBe(false);
      await expect(unconfigured.sendPurchase(purchase)).rejects.toBeInstanceOf(NotConfiguredError);
    }
    expect(client().configured).toBe(true);
    expect(fake.requests).toHaveLength(0);
  });

  it('throws on 5xx, 429 and transient Graph errors; rejects a bad token for good', async () => {
    fake.failNextRequests(1, 500);
    await expect(client().sendPurchase(purchase)).rejects.toBeInstanceOf(ProviderUnavailableError);
    fake.failNextRequests(1, 429);
    await expect(client().sendPurchase(purchase)).rejects.toBeInstanceOf(ProviderUnavailableError);
    fake.failNextRequests(1, 400, { error: { message: 'Application request limit reached', code: 4, is_transient: true } });
    await expect(client().sendPurchase(purchase)).rejects.toThrow('Meta Conversions API answered 400 (code 4)');

    const rejected = await client({ META_CAPI_ACCESS_TOKEN: 'wrong-token' }).sendPurchase(purchase);
    expect(rejected).toMatchObject({
      outcome: 'rejected',
      reason: 'Meta Conversions API answered 400 (code 190)',
      detail: { status: 400, code: 190 },
    });
    expect(fake.events()).toHaveLength(0);
  });

  it("never puts the token or the e-mail in an error, a rejection or the fake's records", async () => {
    const messages: string[] = [];
    fake.failNextRequests(1, 503, { error: { message: `token ${TOKEN} for buyer@example.com`, code: 2, is_transient: true } });
    messages.push(
      await client()
        .sendPurchase(purchase)
        .then(JSON.stringify, (err: Error) => err.message),
    );
    messages.push(JSON.stringify(await client({ META_CAPI_ACCESS_TOKEN: `${TOKEN}x` }).sendPurchase(purchase)));
    await fake.stop();
    try {
      const down = await client()
        .sendPurchase(purchase)
        .catch((err: Error) => err);
      expect(down).toBeInstanceOf(ProviderUnavailableError);
      messages.push((down as Error).message, String((down as Error).stack));
    } finally {
      url = await fake.start(Number(new URL(url).port));
    }
    expect(messages).toHaveLength(4);
    for (const message of messages) {
      expect(message).not.toContain(TOKEN);
      expect(message).not.toMatch(/buyer@example\.com/i);
    }
    expect(JSON.stringify(fake.requests)).not.toContain(TOKEN);
  });
});

describe('Meta configuration', () => {
  it('refuses a pixel id that is not numeric, naming the variable', () => {
    expect(() => loadConfig({ ...base, META_PIXEL_ID: 'px-1' })).toThrow(/META_PIXEL_ID/);
  });
});
