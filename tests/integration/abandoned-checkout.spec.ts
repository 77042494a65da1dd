import type { Job } from 'bullmq';
import request from 'supertest';
import { JOB_QUEUE, JOBS } from '@contracts/jobs';
import { AppConfig } from '@core/config/app-config';
import { signUnsubscribeToken, unsubscribeKey } from '@core/marketing/unsubscribe-token';
import { JobProducer } from '@core/queue/job-producer';
import { OFFERS } from '@contracts/plans';
import { SmtpSink } from '../fakes/smtp-sink';
import { adminCreate } from './support/admin';
import { clientAddresses, flushRedis, outboxDrained, resetData, sleep, Stack, startStack, waitFor } from './support/stack';

/**
 * The abandoned-checkout reminder through the real API, relay and worker, with a 1-second delay:
 * one e-mail per unpaid lead (List-Unsubscribe, link back to /checkout), none for an address
 * that paid or unsubscribed, one for a lead submitted twice, none when turned off, and once
 * across a worker restart and a Redis that lost the delayed job. Then the signed unsubscribe
 * endpoint and the dashboard's figures.
 */
const DELAY_S = 1;
const SUBJECT = /membership is one step away/;
const ADMIN = { email: 'reminder.admin@example.com', password: 'a long enough reminder password' };
const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' };

const smtp = new SmtpSink();
let stack: Stack;
const http = () => request(stack.url);
const client = clientAddresses(88);
const post = (path: string, body: object) => http().post(path).set('X-Forwarded-For', client()).send(body);
const remindersTo = (email: string) =>
  smtp.messages.filter((m) => m.envelope.to.some((to) => to.toLowerCase() === email.toLowerCase()) && SUBJECT.test(m.subject ?? ''));
const tokenFor = (email: string) => signUnsubscribeToken(email, unsubscribeKey(stack.api!.get(AppConfig).INVITATION_TOKEN_KEY_BYTES));

async function saveLead(email: string, name?: string): Promise<string> {
  await post('/api/leads', { email, ...(name ? { name } : {}) }).expect(201);
  const [lead] = await stack.db.query(`SELECT id FROM leads WHERE email_normalized = $1`, [email.trim().toLowerCase()]);
  return lead.id as string;
}

/** The reminder job of the lead has ended (sent or skipped). */
async function reminderEnded(leadId: string): Promise<void> {
  await waitFor(
    async () =>
      (
        await stack.db.query(`SELECT 1 FROM outbox WHERE job_name = $1 AND payload ->> 'leadId' = $2 AND completed_at IS NOT NULL`, [
          JOBS.abandonedCheckoutEmail,
          leadId,
        ])
      ).length === 1,
    'the reminder job to end',
  );
}

/** The lead's reminder job once the relay (in the worker) has handed it to Redis as a delayed job. */
async function delayedReminder(leadId: string): Promise<Job> {
  const rowId = await waitFor(async () => {
    const rows: Array<{ id: string }> = await stack.db.query(
      `SELECT id FROM outbox WHERE job_name = $1 AND payload ->> 'leadId' = $2 AND dispatched_at IS NOT NULL`,
      [JOBS.abandonedCheckoutEmail, leadId],
    );
    return rows[0]?.id;
  }, 'the delayed job in Redis');
  const job = await stack.api!.get(JobProducer).queue(JOB_QUEUE[JOBS.abandonedCheckoutEmail]).getJob(rowId);
  expect(await job!.isDelayed()).toBe(true);
  return job!;
}

async function payStandard(email: string, name: string): Promise<void> {
  const setup = await post('/api/create-setup-intent', { email, name, source: 'clear' }).expect(200);
  const clientSecret: string = setup.body.clientSecret;
  await post('/api/sandbox/confirm-setup', { clientSecret, card, returnUrl: `${stack.url}/checkout?plan=standard` }).expect(200);
  await post('/api/confirm-subscription', {
    email,
    name,
    source: 'clear',
    setupIntentId: clientSecret.split('_secret_')[0],
    plan: OFFERS.default.name,
    amount: OFFERS.default.amount,
  }).expect(200);
  await waitFor(
    async () =>
      (await stack.db.query(`SELECT 1 FROM orders WHERE email_normalized = $1 AND paid_at IS NOT NULL`, [email.toLowerCase()])).length > 0,
    'the order to be paid',
  );
}

async function reminderStack(env: Record<string, string> = {}): Promise<void> {
  await stack?.stop();
  stack = await startStack({
    SMTP_URL: smtp.url,
    ABANDONED_CHECKOUT_DELAY_S: String(DELAY_S),
    SANDBOX_WEBHOOK_SECRET: 'whsec_remindersecret0000000000000',
    STRIPE_SECRET_KEY: '',
    TRUST_PROXY: 'true',
    ...env,
  });
  await stack.db.query(`TRUNCATE orders, payment_events, sandbox_objects, email_suppressions, admin_accounts, admin_sessions CASCADE`);
  await resetData(stack.db);
  smtp.reset();
}

beforeAll(async () => {
  await flushRedis();
  await smtp.start();
  await reminderStack();
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await smtp.stop();
});

describe('the reminder', () => {
  it('goes once, after the delay, to an unpaid lead, with List-Unsubscribe and a link back to /checkout without a token', async () => {
    const saved = Date.now();
    const leadId = await saveLead('Ana.Reminded@Example.com', 'Ana Reminded');
    await waitFor(() => remindersTo('Ana.Reminded@Example.com').length === 1, 'the reminder');
    expect(Date.now() - saved).toBeGreaterThanOrEqual(DELAY_S * 1000);
    await reminderEnded(leadId);

    const [mail] = remindersTo('Ana.Reminded@Example.com');
    const link = /https?:\/\/[^\s"<>]+\/checkout\?[^\s"<>]+/.exec(mail.text ?? '')?.[0];
    const checkout = new URL(link!);
    expect(checkout.origin).toBe(stack.url);
    expect(Object.fromEntries(checkout.searchParams)).toEqual({
      plan: 'standard',
      email: 'Ana.Reminded@Example.com',
      name: 'Ana Reminded',
    });

    const unsubscribe = `${stack.url}/api/unsubscribe?token=${tokenFor('ana.reminded@example.com')}`;
    expect(mail.headers['list-unsubscribe']).toBe(`<${unsubscribe}>`);
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.text).toContain(`Unsubscribe: ${unsubscribe}`);
    expect(mail.html).toContain(`href="${unsubscribe}"`);
    expect(mail.messageId).toMatch(new RegExp(`^<abandoned-checkout-email\\.${leadId}@`));

    await sleep(DELAY_S * 1000);
    expect(remindersTo('Ana.Reminded@Example.com')).toHaveLength(1);
  });

  it('is not sent to an address that has paid', async () => {
    await payStandard('paid.buyer@example.com', 'Paid Buyer');
    const leadId = await saveLead('Paid.Buyer@example.com', 'Paid Buyer');
    await reminderEnded(leadId);
    expect(remindersTo('Paid.Buyer@example.com')).toHaveLength(0);
    expect((await stack.db.query(`SELECT 1 FROM side_effects WHERE key = $1`, [`abandoned-checkout-email:${leadId}`])).length).toBe(0);
  });

  it('is not sent to an address that paid after the lead was saved and before the reminder was due', async () => {
    await reminderStack({ ABANDONED_CHECKOUT_DELAY_S: '3600' });
    try {
      const leadId = await saveLead('quick.buyer@example.com', 'Quick Buyer');
      const job = await delayedReminder(leadId);
      await payStandard('quick.buyer@example.com', 'Quick Buyer');
      // The hour has passed: the delayed job runs now.
      await job.promote();
      await reminderEnded(leadId);
      expect(remindersTo('quick.buyer@example.com')).toHaveLength(0);
    } finally {
      await reminderStack();
    }
  });

  it('is not sent for a lead erased before it was due', async () => {
    await reminderStack({ ABANDONED_CHECKOUT_DELAY_S: '3600' });
    try {
      const leadId = await saveLead('erased.reader@example.com', 'Erased Reader');
      const job = await delayedReminder(leadId);
      // As the admin's erase leaves a lead.
      await stack.db.query(
        `UPDATE leads SET email = 'erased+' || id || '@invalid', email_normalized = 'erased+' || id || '@invalid', name = NULL WHERE id = $1`,
        [leadId],
      );
      await job.promote();
      await reminderEnded(leadId);
      expect(smtp.messages.filter((m) => SUBJECT.test(m.subject ?? ''))).toHaveLength(0);
    } finally {
      await reminderStack();
    }
  });

  it('is not sent to an address that unsubscribed', async () => {
    await http()
      .post(`/api/unsubscribe?token=${tokenFor('gone@example.com')}`)
      .type('form')
      .send('List-Unsubscribe=One-Click')
      .expect(200);
    const leadId = await saveLead('GONE@example.com', 'Gone Away');
    await reminderEnded(leadId);
    expect(remindersTo('GONE@example.com')).toHaveLength(0);
  });

  it('goes once to a lead submitted again, before and after its reminder', async () => {
    const leadId = await saveLead('twice@example.com', 'Twice');
    await post('/api/leads', { email: 'Twice@Example.com' }).expect(201);
    await waitFor(() => remindersTo('twice@example.com').length === 1, 'the reminder');
    await reminderEnded(leadId);
    await post('/api/leads', { email: 'twice@example.com', name: 'Twice Again' }).expect(201);
    await outboxDrained(stack.db);
    await sleep(DELAY_S * 1000 + 500);
    expect(remindersTo('twice@example.com')).toHaveLength(1);
    const [{ n }] = await stack.db.query(`SELECT count(*)::int AS n FROM outbox WHERE job_name = $1 AND payload ->> 'leadId' = $2`, [
      JOBS.abandonedCheckoutEmail,
      leadId,
    ]);
    expect(n).toBe(1);
  });

  it('goes once across a worker restart', async () => {
    await reminderStack({ ABANDONED_CHECKOUT_DELAY_S: '3' });
    try {
      const leadId = await saveLead('restart@example.com', 'Restart Reader');
      await delayedReminder(leadId);
      // The delayed job falls due while no worker runs.
      await stack.stopWorker();
      try {
        await sleep(3200);
        expect(remindersTo('restart@example.com')).toHaveLength(0);
      } finally {
        await stack.startWorker();
      }
      await waitFor(() => remindersTo('restart@example.com').length === 1, 'the reminder after the restart');
      await reminderEnded(leadId);
      await stack.stopWorker();
      await stack.startWorker();
      await sleep(1500);
      expect(remindersTo('restart@example.com')).toHaveLength(1);
    } finally {
      await reminderStack();
    }
  });

  it('goes once even when Redis lost the delayed job: the outbox row is offered again once due', async () => {
    await reminderStack({ ABANDONED_CHECKOUT_DELAY_S: '2', OUTBOX_REDISPATCH_AFTER_MS: '1000' });
    try {
      const leadId = await saveLead('lost.job@example.com', 'Lost Job');
      const job = await delayedReminder(leadId);
      await job.remove();
      await waitFor(() => remindersTo('lost.job@example.com').length === 1, 'the reminder, redispatched');
      await reminderEnded(leadId);
      await sleep(1500);
      expect(remindersTo('lost.job@example.com')).toHaveLength(1);
      const [row] = await stack.db.query(`SELECT dispatch_count FROM outbox WHERE job_name = $1 AND payload ->> 'leadId' = $2`, [
        JOBS.abandonedCheckoutEmail,
        leadId,
      ]);
      expect(row.dispatch_count).toBe(2);
    } finally {
      await reminderStack();
    }
  });

  it('is not owed at all with ABANDONED_CHECKOUT_DELAY_S=0', async () => {
    await reminderStack({ ABANDONED_CHECKOUT_DELAY_S: '0' });
    try {
      await saveLead('off@example.com', 'Reminders Off');
      await outboxDrained(stack.db);
      await sleep(1500);
      expect(remindersTo('off@example.com')).toHaveLength(0);
      expect(await stack.db.query(`SELECT 1 FROM outbox WHERE job_name = $1`, [JOBS.abandonedCheckoutEmail])).toHaveLength(0);
    } finally {
      await reminderStack();
    }
  });
});

describe('/api/unsubscribe', () => {
  const suppressed = async (email: string) =>
    (await stack.db.query(`SELECT 1 FROM email_suppressions WHERE email_normalized = $1`, [email])).length === 1;

  it('unsubscribes on the RFC 8058 one-click POST, form-encoded or multipart, and says so', async () => {
    const res = await http()
      .post(`/api/unsubscribe?token=${tokenFor('One.Click@Example.com')}`)
      .type('form')
      .send('List-Unsubscribe=One-Click')
      .expect(200);
    expect(res.text).toContain('You are unsubscribed');
    expect(await suppressed('one.click@example.com')).toBe(true);

    await http()
      .post(`/api/unsubscribe?token=${tokenFor('multipart@example.com')}`)
      .field('List-Unsubscribe', 'One-Click')
      .expect(200);
    expect(await suppressed('multipart@example.com')).toBe(true);
    // A second click changes nothing and still answers 200.
    await http()
      .post(`/api/unsubscribe?token=${tokenFor('multipart@example.com')}`)
      .type('form')
      .send('List-Unsubscribe=One-Click')
      .expect(200);
  });

  it('shows a confirmation page on GET and does not unsubscribe by itself', async () => {
    const token = tokenFor('just.looking@example.com');
    const res = await http().get(`/api/unsubscribe?token=${token}`).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain(`<form method="post" action="/api/unsubscribe?token=${token}">`);
    expect(res.text).toContain('name="List-Unsubscribe" value="One-Click"');
    expect(await suppressed('just.looking@example.com')).toBe(false);
  });

  it.each([
    ['forged', () => `${Buffer.from('victim@example.com').toString('base64url')}.${'A'.repeat(43)}`],
    ['another address', () => `${Buffer.from('victim@example.com').toString('base64url')}.${tokenFor('me@example.com').split('.')[1]}`],
    ['malformed', () => 'not-a-token'],
    ['missing', () => ''],
  ])('answers a %s token with a readable 400 and stores nothing', async (_kind, token) => {
    for (const res of [
      await http().get(`/api/unsubscribe?token=${token()}`),
      await http().post(`/api/unsubscribe?token=${token()}`).type('form').send('List-Unsubscribe=One-Click'),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('This unsubscribe link is not valid. Please use the link from the most recent e-mail, copied in full.');
    }
    expect(await suppressed('victim@example.com')).toBe(false);
  });

  it('still refuses multipart bodies on other routes', async () => {
    await http().post('/api/leads').field('email', 'multi@example.com').expect(415);
  });
});

describe('the funnel dashboard', () => {
  it('counts reminders sent and the orders paid within 7 days after them', async () => {
    const from = new Date(Date.now() - 1000).toISOString();
    const leadId = await saveLead('came.back@example.com', 'Came Back');
    await saveLead('never.came@example.com', 'Never Came');
    await waitFor(() => remindersTo('came.back@example.com').length + remindersTo('never.came@example.com').length === 2, 'two reminders');
    await reminderEnded(leadId);
    await payStandard('came.back@example.com', 'Came Back');

    expect(await adminCreate(ADMIN.email, ADMIN.password)).toMatchObject({ code: 0 });
    const login = await http().post('/api/admin/login').send(ADMIN).expect(200);
    const cookie = ([] as string[]).concat(login.headers['set-cookie'] ?? [])[0].split(';')[0];
    const to = new Date(Date.now() + 60_000).toISOString();
    const report = await http().get(`/api/admin/funnel?from=${from}&to=${to}`).set('cookie', cookie).expect(200);
    expect(report.body.reminders).toEqual({ sent: 2, paidWithin7Days: 1 });

    const before = await http()
      .get(`/api/admin/funnel?from=${new Date(Date.now() - 3_600_000).toISOString()}&to=${from}`)
      .set('cookie', cookie)
      .expect(200);
    expect(before.body.reminders).toEqual({ sent: 0, paidWithin7Days: 0 });
  });
});
