import { randomBytes } from 'node:crypto';
import { OFFERS, planOf } from '@contracts/plans';
import { createAdmin } from './fuzz-stack';
import { RawRequest, RawResponse, send } from './http';
import type { FuzzContext } from './malformed';

/** Times a setup request is sent again after a 503 "busy" (a stack run with a tiny pool refuses some). */
const BUSY_RETRIES = 20;

async function json<T>(url: string, req: RawRequest, expected: number): Promise<{ body: T; res: RawResponse }> {
  let res = await send(url, req);
  for (let retry = 0; res.status === 503 && res.headers['retry-after'] && retry < BUSY_RETRIES; retry++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    res = await send(url, req);
  }
  if (res.status !== expected) throw new Error(`${req.method} ${req.path} answered ${res.status}: ${res.text.slice(0, 300)}`);
  return { body: JSON.parse(res.text) as T, res };
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}): RawRequest => ({
  label: 'setup',
  method: 'POST',
  path,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** Real ids and an admin session, so generated requests get past "not found" and "sign in first". */
export async function fuzzContext(url: string, webhookSecret: string): Promise<FuzzContext> {
  const party = { email: 'fuzz.setup@example.com', name: 'Fuzz Setup', source: 'clear' };
  const payment = await json<{ clientSecret: string }>(
    url,
    post('/api/create-payment-intent', { ...party, amount: planOf('full-payment').amount, plan: planOf('full-payment').name }),
    200,
  );
  const setup = await json<{ clientSecret: string }>(url, post('/api/create-setup-intent', { ...party, planId: OFFERS.default.id }), 200);
  const invitation = await json<{ accessToken: string }>(
    url,
    post('/api/invitation-gate', { name: 'Fuzz Invitee', email: 'fuzz.invitee@example.com' }),
    201,
  );
  const adminEmail = `fuzz.admin.${randomBytes(4).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(12).toString('hex')}`;
  createAdmin(adminEmail, password);
  const login = await json<{ csrfToken: string }>(url, post('/api/admin/login', { email: adminEmail, password }), 200);
  const cookie = String(login.res.headers['set-cookie']).split(';')[0];
  const admin = { cookie, csrfToken: login.body.csrfToken };
  const testimonial = await json<{ id: string }>(
    url,
    post(
      '/api/testimonials',
      { name: 'Fuzz', title: 'Tester', content: 'Kept for PATCH fuzzing', rating: 5 },
      { cookie, 'x-csrf-token': admin.csrfToken },
    ),
    201,
  );
  return {
    clientSecret: payment.body.clientSecret,
    paymentIntentId: payment.body.clientSecret.split('_secret_')[0],
    setupIntentId: setup.body.clientSecret.split('_secret_')[0],
    accessToken: invitation.body.accessToken,
    webhookSecret,
    admin,
    testimonialId: testimonial.body.id,
  };
}
