import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { adminSignIn, AdminSession } from './support/admin';
import { clientAddresses, Stack, startStack } from './support/stack';

/**
 * A sandbox under NODE_ENV=production (a staging site, or a mistake): its owner levers (clock,
 * dispute evidence) and the API documentation answer only a signed-in admin, as if absent to
 * anyone else; its webhook route takes small bodies and limits each client. The buyer's sandbox
 * routes stay open: they are how a test buyer pays there.
 */
const NO_SUCH_ROUTE = 'There is nothing at this address for this method; check the method and the path';
const WRITES_PER_WINDOW = 5;
const admin = { email: `fences-${randomBytes(4).toString('hex')}@example.com`, password: `pw-${randomBytes(12).toString('hex')}` };
const nextClient = clientAddresses(34);

const productionEnv = (extra: Record<string, string> = {}) => ({
  NODE_ENV: 'production',
  INVITATION_TOKEN_KEY: randomBytes(32).toString('hex'),
  SANDBOX_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('hex')}`,
  PAYMENT_PROVIDER: 'sandbox',
  TRUST_PROXY: 'true',
  RATE_LIMIT_WRITES: String(WRITES_PER_WINDOW),
  ...extra,
});

let stack: Stack;
let session: AdminSession;
const http = () => request(stack.url);
const post = (path: string) => http().post(path).set('X-Forwarded-For', nextClient());

afterEach(async () => {
  await stack?.stop();
});

describe('the sandbox under NODE_ENV=production', () => {
  beforeEach(async () => {
    stack = await startStack(productionEnv(), { worker: false });
    session = await adminSignIn(stack.url, admin);
  });

  it('answers the clock 404 unless an admin session sends its CSRF token', async () => {
    const offset = async () => Number((await stack.db.query('SELECT offset_seconds FROM sandbox_clock'))[0].offset_seconds);
    const before = await offset();
    const anonymous = await post('/api/sandbox/clock').send({ advanceDays: 1 }).expect(404);
    expect(anonymous.body.message).toBe(NO_SUCH_ROUTE);
    // A session alone is not enough: a cross-site form rides on the cookie, never on the token.
    await post('/api/sandbox/clock').set('Cookie', session.cookie).send({ advanceDays: 1 }).expect(404);
    await post('/api/sandbox/clock').set('Cookie', session.cookie).set('x-csrf-token', 'wrong').send({ advanceDays: 1 }).expect(404);
    await post('/api/sandbox/clock').set('x-csrf-token', session.csrfToken).send({ advanceDays: 1 }).expect(404);
    expect(await offset()).toBe(before);

    const moved = await post('/api/sandbox/clock')
      .set('Cookie', session.cookie)
      .set('x-csrf-token', session.csrfToken)
      .send({ advanceDays: 1 })
      .expect(200);
    expect(typeof moved.body.now).toBe('string');
    expect(await offset()).toBe(before + 86_400);
    await stack.db.query('UPDATE sandbox_clock SET offset_seconds = 0');
  });

  it("answers a dispute's evidence 404 unless an admin session sends its CSRF token", async () => {
    const path = '/api/sandbox/disputes/dp_nosuchdispute000000000001/evidence';
    const body = { evidence: 'winning_evidence' };
    expect((await post(path).send(body).expect(404)).body.message).toBe(NO_SUCH_ROUTE);
    expect((await post(path).set('Cookie', session.cookie).send(body).expect(404)).body.message).toBe(NO_SUCH_ROUTE);
    const admitted = await post(path).set('Cookie', session.cookie).set('x-csrf-token', session.csrfToken).send(body).expect(404);
    expect(admitted.body.message).toBe('No dispute has this id.');
  });

  it("keeps the buyer's sandbox routes open: a test buyer pays without a session", async () => {
    const confirm = await post('/api/sandbox/confirm-payment')
      .send({
        clientSecret: 'pi_nosuchintent_secret_x',
        card: { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' },
        returnUrl: `${stack.url}/success`,
      })
      .expect(404);
    expect(confirm.body.message).toBe('No payment matches this client secret.');
  });

  it('tells the signed-in admin which provider runs, for the Sandbox clock screen', async () => {
    const answer = await http().get('/api/admin/session').set('Cookie', session.cookie).expect(200);
    expect(answer.body.paymentProvider).toBe('sandbox');
  });

  it('serves the API documentation to a signed-in admin only', async () => {
    for (const path of ['/api/docs', '/api/docs/', '/api/docs-json', '/api/docs-yaml', '/api/docs/swagger-ui-init.js']) {
      const anonymous = await http().get(path).expect(404);
      expect(anonymous.body.message).toBe(NO_SUCH_ROUTE);
    }
    const doc = await http().get('/api/docs-json').set('Cookie', session.cookie).expect(200);
    expect(Object.keys(doc.body.paths)).toContain('/api/leads');
    await http().get('/api/docs').set('Cookie', session.cookie).expect(200).expect('content-type', /html/);
  });

  it('refuses a webhook body larger than any sandbox event with 413', async () => {
    const padding = 'x'.repeat(70 * 1024);
    await post('/api/webhooks/stripe').set('Content-Type', 'application/json').send(JSON.stringify({ padding })).expect(413);
  });

  it('holds each client to the public-write limit on the webhook route', async () => {
    const client = nextClient();
    const send = () =>
      http().post('/api/webhooks/stripe').set('X-Forwarded-For', client).set('stripe-signature', 't=1,v1=00').send({ id: 'evt_flood' });
    for (let i = 0; i < WRITES_PER_WINDOW; i++) await send().expect(400);
    await send().expect(429);
    // Another client is not held back by the first one's flood.
    await http().post('/api/webhooks/stripe').set('X-Forwarded-For', nextClient()).send({ id: 'evt_other' }).expect(400);
  });
});

describe('API_DOCS=public under NODE_ENV=production', () => {
  it('serves the API documentation to anyone', async () => {
    stack = await startStack(productionEnv({ API_DOCS: 'public' }), { worker: false });
    await http().get('/api/docs-json').expect(200);
    await http().get('/api/docs').expect(200).expect('content-type', /html/);
  });
});
