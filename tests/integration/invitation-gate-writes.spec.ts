import request from 'supertest';
import { SmtpSink } from '../fakes/smtp-sink';
import { doorSummary, onceEach } from '../fakes/exactly-once';
import { postSimultaneously } from './support/simultaneous';
import { flushRedis, outboxDrained, resetData, sleep, Stack, startStack, waitFor } from './support/stack';

/**
 * How the invitation gate writes: the statements one submission costs the database, that
 * simultaneous submissions share them, and that simultaneous submissions of one address still
 * make one invitation and owe one e-mail. The worker (with the outbox relay) runs only when a
 * test starts it, so every statement the API runs while a test watches is the gate's.
 */
const smtp = new SmtpSink();
let stack: Stack;
const http = () => request(stack.url);
const count = async (sql: string): Promise<number> => (await stack.db.query(`SELECT count(*)::int AS n FROM ${sql}`))[0].n;

/** Statements the API's DataSource sends, as one-line SQL. */
let seen: string[] = [];
const TRANSACTION_CONTROL = /^(START TRANSACTION|BEGIN|COMMIT|ROLLBACK)\b/i;

/** The statements the API sends while `action` runs, after making sure nothing else was sending any. */
async function statementsDuring(action: () => Promise<unknown>): Promise<string[]> {
  await waitFor(async () => {
    seen = [];
    await sleep(200);
    return seen.length === 0;
  }, 'the API to send no statements of its own');
  await action();
  const statements = seen;
  seen = [];
  return statements;
}

const work = (statements: string[]) => statements.filter((sql) => !TRANSACTION_CONTROL.test(sql));

beforeAll(async () => {
  await flushRedis();
  await smtp.start();
  stack = await startStack({ SMTP_URL: smtp.url, INVITATION_DELIVERY: 'email', INVITATION_RESEND_WINDOW_MS: '600000' }, { worker: false });
  const logger = stack.db.logger;
  const logQuery = logger.logQuery.bind(logger);
  logger.logQuery = (query, parameters, queryRunner) => {
    seen.push(query.replace(/\s+/g, ' ').trim());
    return logQuery(query, parameters, queryRunner);
  };
});
afterAll(async () => {
  await stack?.stop();
  await smtp.stop();
});
beforeEach(async () => {
  await resetData(stack.db);
  await stack.db.query('TRUNCATE invitations CASCADE');
  smtp.reset();
});

describe('statements per submission', () => {
  it('stores a first submission and owes its e-mail in one statement', async () => {
    const statements = await statementsDuring(() =>
      http().post('/api/invitation-gate').send({ name: 'Counted Once', email: 'counted@example.com' }).expect(201),
    );
    expect(statements).toHaveLength(1);
    expect(await count('invitations')).toBe(1);
    expect(await count('invitation_submissions')).toBe(1);
    expect(await count('invitation_tokens')).toBe(1);
    const [job] = await stack.db.query(`SELECT job_name, payload FROM outbox`);
    const [invitation] = await stack.db.query('SELECT id FROM invitations');
    expect(job).toEqual({
      job_name: 'invitation-email',
      payload: { invitationId: invitation.id, issue: 1, sealedToken: expect.stringMatching(/^v1\./) },
    });
  });

  it('stores a resubmission within the resend window, which owes nothing, in one statement', async () => {
    await http().post('/api/invitation-gate').send({ name: 'Counted Twice', email: 'twice@example.com' }).expect(201);
    const statements = await statementsDuring(() =>
      http().post('/api/invitation-gate').send({ name: 'Counted Twice', email: 'twice@example.com' }).expect(201),
    );
    expect(statements).toHaveLength(1);
    expect(await count('invitation_submissions')).toBe(2);
    expect(await count('outbox')).toBe(1);
  });

  it('owes a new e-mail for a resubmission after the resend window in two more statements and one transaction', async () => {
    await http().post('/api/invitation-gate').send({ name: 'Came Back', email: 'back@example.com' }).expect(201);
    await stack.db.query(`UPDATE invitations SET email_owed_at = now() - interval '1 hour'`);
    const statements = await statementsDuring(() =>
      http().post('/api/invitation-gate').send({ name: 'Came Back', email: 'back@example.com' }).expect(201),
    );
    expect(work(statements)).toHaveLength(3);
    expect(statements).toHaveLength(5);
    expect(await count('invitation_submissions')).toBe(2);
    expect(await count('invitation_tokens')).toBe(2);
    const payloads = (await stack.db.query(`SELECT payload FROM outbox ORDER BY created_at`)).map((r: { payload: object }) => r.payload);
    expect(payloads.map((p: { issue: number }) => p.issue)).toEqual([1, 2]);
  });

  it('shares the statements among simultaneous submissions', async () => {
    const bodies = Array.from({ length: 20 }, (_, i) => ({ name: `Guest ${i}`, email: `guest-${i}@example.com` }));
    let answers: Array<{ status: number }> = [];
    const statements = await statementsDuring(async () => {
      answers = await postSimultaneously(stack.url, '/api/invitation-gate', bodies);
    });
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    // One statement would do; the requests may reach the API over a few event-loop turns.
    expect(statements.length).toBeLessThanOrEqual(5);
    expect(await count('invitations')).toBe(20);
    expect(await count('invitation_submissions')).toBe(20);
    expect(await count('invitation_tokens')).toBe(20);
    expect(await count(`outbox WHERE job_name = 'invitation-email'`)).toBe(20);
  });
});

describe('simultaneous submissions of one address', () => {
  afterEach(() => stack.stopWorker());

  it('make one invitation, one token and one e-mail, delivered once', async () => {
    const answers = await postSimultaneously(
      stack.url,
      '/api/invitation-gate',
      Array.from({ length: 20 }, (_, i) => ({ name: `Twin ${i}`, email: i % 2 ? 'Twin@Example.com' : 'twin@example.com' })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(answers.map((a) => a.body)).toEqual(Array(20).fill({}));
    expect(await count('invitations')).toBe(1);
    expect(await count('invitation_submissions')).toBe(20);
    expect(await count('invitation_tokens')).toBe(1);
    expect(await count('outbox')).toBe(1);
    const [row] = await stack.db.query('SELECT submission_count, tokens_issued FROM invitations');
    expect(row).toEqual({ submission_count: 20, tokens_issued: 1 });

    await stack.startWorker();
    await waitFor(() => smtp.messages.length >= 1, 'the invitation e-mail');
    await outboxDrained(stack.db);
    expect(doorSummary(smtp.deliveriesAtDoor())).toEqual(onceEach(1));
  });
});

describe('a submission the database refuses', () => {
  // A trigger refuses one invitee's submission: once as a server fault (P0001), once as bad data (class 22).
  beforeAll(async () => {
    await stack.db.query(`
      CREATE FUNCTION refuse_test_invitations() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.name = 'Refused Fault' THEN RAISE EXCEPTION 'refused for the test'; END IF;
        IF NEW.name = 'Refused Unstorable' THEN RAISE EXCEPTION 'refused for the test' USING ERRCODE = '22023'; END IF;
        RETURN NEW;
      END $$`);
    await stack.db.query(
      `CREATE TRIGGER refuse_test_invitations BEFORE INSERT ON invitation_submissions FOR EACH ROW EXECUTE FUNCTION refuse_test_invitations()`,
    );
  });
  afterAll(async () => {
    await stack.db.query('DROP TRIGGER IF EXISTS refuse_test_invitations ON invitation_submissions');
    await stack.db.query('DROP FUNCTION IF EXISTS refuse_test_invitations()');
  });

  it.each([
    ['Refused Fault', 500],
    ['Refused Unstorable', 400],
  ])('fails only "%s" (%i); the others of its batch are stored with their e-mails owed', async (refused, status) => {
    // One neighbour's invitation exists and owes a new e-mail, so both ways of recording run.
    await http().post('/api/invitation-gate').send({ name: 'Old Neighbour', email: 'old-neighbour@example.com' }).expect(201);
    await stack.db.query(`UPDATE invitations SET email_owed_at = now() - interval '1 hour'`);
    const neighbours = [
      { name: 'Old Neighbour', email: 'old-neighbour@example.com' },
      ...Array.from({ length: 11 }, (_, i) => ({ name: `Neighbour ${i}`, email: `neighbour-${i}@example.com` })),
    ];
    const answers = await postSimultaneously(stack.url, '/api/invitation-gate', [
      ...neighbours.slice(0, 6),
      { name: refused, email: 'refused@example.com' },
      ...neighbours.slice(6),
    ]);
    expect(answers.map((a) => a.status)).toEqual([...Array(6).fill(201), status, ...Array(6).fill(201)]);
    expect(answers[6].body.message).toMatch(status === 400 ? /cannot be stored/ : /went wrong on our side/);
    const stored: Array<{ email: string }> = await stack.db.query('SELECT email FROM invitations ORDER BY email');
    expect(stored.map((r) => r.email)).toEqual(neighbours.map((n) => n.email).sort());
    expect(await count('invitation_submissions')).toBe(13);
    expect(await count('invitation_tokens')).toBe(13);
    expect(await count(`outbox WHERE job_name = 'invitation-email'`)).toBe(13);
  });
});
