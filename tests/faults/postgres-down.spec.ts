import { FakeAffiliateServer } from '../fakes/affiliate-server';
import { exactlyOnceProblems } from '../fakes/exactly-once';
import { ApiProcess, FaultStack } from './support/fault-stack';
import { everyOwedJobFinished, getJson, postJson, waitFor } from './support/traffic';

/**
 * Postgres is stopped under a running API and worker, then started again. While it is away the
 * API refuses work at once with a readable 503 (a client's patience is not spent on a hang) and
 * its readiness turns red; once it is back, everything works again without a restart.
 */
const affiliate = new FakeAffiliateServer();
let stack: FaultStack;
let api: ApiProcess;

/** A bound on how long a refusal may take, far below any client's patience; not a benchmark. */
const FAST_MS = 5000;

beforeAll(async () => {
  stack = await FaultStack.start('postgres');
  await affiliate.start();
  stack.life.own('Fake affiliate service', () => affiliate.stop());
  const env = await stack.env({ AFFILIATE_API_URL: affiliate.url, AFFILIATE_API_KEY: 'fault-key' });
  api = await stack.startApi(env);
  stack.startWorker(env);
});

afterAll(() => stack?.undoAll());

const lead = (email: string) => postJson(`${api.url}/api/leads`, { email, name: 'Fault Lead', referral: 'partner7' });

it('answers 503 fast with a clear message while Postgres is down, turns health red, and recovers by itself', async () => {
  expect((await lead('before@example.com')).status).toBe(201);
  expect((await getJson(`${api.url}/api/health`)).status).toBe(200);

  await stack.pausePostgres();
  try {
    const during = await Promise.all([lead('during-1@example.com'), lead('during-2@example.com'), lead('during-3@example.com')]);
    for (const outcome of during) {
      expect(outcome.status).toBe(503);
      expect(outcome.ms).toBeLessThan(FAST_MS);
      expect(outcome.body).toMatchObject({ statusCode: 503, message: expect.stringMatching(/temporarily unavailable/i) });
    }
    const invitation = await postJson(`${api.url}/api/invitation-gate`, { name: 'Fault Guest', email: 'guest@example.com' });
    expect(invitation.status).toBe(503);
    expect(invitation.ms).toBeLessThan(FAST_MS);

    const health = await getJson(`${api.url}/api/health`);
    expect(health.status).toBe(503);
    expect(health.ms).toBeLessThan(FAST_MS);
    expect(health.body).toMatchObject({ status: 'unavailable', postgres: 'down' });
    // The liveness route touches no dependency: the process itself is fine.
    expect((await getJson(`${api.url}/api/health/live`)).status).toBe(200);
  } finally {
    await stack.resumePostgres();
  }

  await waitFor(async () => (await getJson(`${api.url}/api/health`)).status === 200, 'health green again', 30_000, 250);
  const after = await lead('after@example.com');
  expect(after.status).toBe(201);
  const { rows } = await stack.db.query(`SELECT email FROM leads ORDER BY email`);
  expect(rows.map((r: { email: string }) => r.email)).toEqual(['after@example.com', 'before@example.com']);
  // The worker recovered too: both stored leads are signed up, once each.
  await waitFor(
    async () => (await stack.db.query(`SELECT count(*)::int AS n FROM leads WHERE affiliate_status = 'sent'`)).rows[0].n === 2,
    'both leads attributed',
    30_000,
    250,
  );
  await everyOwedJobFinished(stack.db, 30_000);
  // Counted at the fake's door. The pause may land between the affiliate's answer and the
  // ledger's record of the first lead: that one job may be sent again, with its key.
  expect(exactlyOnceProblems(affiliate.signupsAtDoor(), ['after@example.com', 'before@example.com'], 1)).toEqual([]);
  expect(affiliate.signups().map((s) => s.params.email)).toEqual(['before@example.com', 'after@example.com']);
});
