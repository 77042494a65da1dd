import { BadRequestException, Logger } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { AppConfig } from '@core/config/app-config';
import { PoolBusyError } from '@core/database/pool-admission';
import { LeadRepository, type NewLead } from '@core/database/repositories/lead.repository';
import { LeadBatchWriter } from './lead-batch-writer';

interface Transaction {
  keys: string[];
  /** Per upserted lead: the affiliate status it is stored with (null: its signup job decides it). */
  affiliateStatuses: Array<string | null>;
  owed: unknown[];
  /** Per owed job: its job name and delay in seconds (null: at once). */
  jobs: Array<[string, number | null]>;
  /** Statements run in the transaction. */
  statements: number;
  committed: boolean;
}

/**
 * Stands in for Postgres at the level the writer talks to it: one upsert statement keyed by the
 * normalised e-mail it is given, the outbox insert of `owe`, and transactions that keep nothing
 * when they fail. It answers rows in reverse order, so only position matching gets them right.
 */
class FakeDatabase {
  readonly transactions: Transaction[] = [];
  readonly leads = new Map<string, string>();
  failFor: { key: string; error: Error & { code: string } } | null = null;
  /** Every transaction fails before its first statement, as when the pool lends no connection. */
  refuseConnections: Error | null = null;
  /** Transactions begun, including those that never got a connection. */
  begun = 0;
  private nextId = 1;
  private lock: Promise<unknown> = Promise.resolve();

  asDataSource(): DataSource {
    return { transaction: (work: (manager: EntityManager) => Promise<unknown>) => this.transaction(work) } as unknown as DataSource;
  }

  /** Transactions run one after another, as Postgres makes an upsert wait for a conflicting one. */
  private async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    this.begun += 1;
    const turn = this.lock.then(() => this.runTransaction(work));
    this.lock = turn.catch(() => undefined);
    return turn;
  }

  private async runTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.refuseConnections) throw this.refuseConnections;
    const tx: Transaction = { keys: [], affiliateStatuses: [], owed: [], jobs: [], statements: 0, committed: false };
    this.transactions.push(tx);
    const staged = new Map(this.leads);
    const manager = { query: (sql: string, params: unknown[][]) => this.query(tx, staged, sql, params) } as unknown as EntityManager;
    const result = await work(manager);
    staged.forEach((id, key) => this.leads.set(key, id));
    tx.committed = true;
    return result;
  }

  private async query(tx: Transaction, staged: Map<string, string>, sql: string, params: unknown[][]): Promise<unknown[]> {
    await Promise.resolve();
    tx.statements += 1;
    if (sql.includes('INSERT INTO leads')) {
      const keys = params[1] as string[];
      tx.keys.push(...keys);
      tx.affiliateStatuses.push(...(params[6] as Array<string | null>));
      if (this.failFor && keys.includes(this.failFor.key)) throw this.failFor.error;
      const rows = keys.map((key, i) => {
        const known = staged.get(key);
        const id = known ?? `lead-${this.nextId++}`;
        staged.set(key, id);
        return { ord: String(i + 1), id, inserted: !known };
      });
      return rows.reverse();
    }
    if (sql.includes('INSERT INTO outbox')) {
      const payloads = (params[2] as string[]).map((p) => JSON.parse(p));
      tx.owed.push(...payloads);
      tx.jobs.push(...(params[1] as string[]).map((name, i): [string, number | null] => [name, (params[3] as Array<number | null>)[i]]));
      return payloads.map((_, i) => ({ id: `outbox-${i}` }));
    }
    throw new Error(`unexpected query: ${sql}`);
  }
}

/** A lead with a referral by default, so that it owes its affiliate signup. */
const lead = (email: string, referred: Pick<NewLead, 'referral' | 'attribution'> = { referral: 'partner7', attribution: {} }): NewLead => ({
  email,
  name: null,
  phone: null,
  ...referred,
});
const dbError = (code: string) => Object.assign(new Error(`database error ${code}`), { code });

describe('LeadBatchWriter', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));

  let db: FakeDatabase;
  let writer: LeadBatchWriter;
  beforeEach(() => {
    db = new FakeDatabase();
    const dataSource = db.asDataSource();
    writer = new LeadBatchWriter(dataSource, new LeadRepository(dataSource), { ABANDONED_CHECKOUT_DELAY_S: 0 } as AppConfig);
  });

  it('owes a new lead its delayed reminder in the same outbox insert, and a known lead none', async () => {
    const dataSource = db.asDataSource();
    writer = new LeadBatchWriter(dataSource, new LeadRepository(dataSource), { ABANDONED_CHECKOUT_DELAY_S: 3600 } as AppConfig);
    const first = await writer.write(lead('new@example.com'));
    await writer.write(lead('NEW@example.com'));
    expect(db.transactions[0].jobs).toEqual([
      ['affiliate-signup', null],
      ['abandoned-checkout-email', 3600],
    ]);
    expect(db.transactions[0].owed).toEqual([{ leadId: first.id }, { leadId: first.id }]);
    expect(db.transactions[0].statements).toBe(2);
    expect(db.transactions[1].jobs).toEqual([]);
  });

  it('stores a new lead with nothing to attribute as skipped and owes it no affiliate signup, only its reminder', async () => {
    const dataSource = db.asDataSource();
    writer = new LeadBatchWriter(dataSource, new LeadRepository(dataSource), { ABANDONED_CHECKOUT_DELAY_S: 3600 } as AppConfig);
    const [organic, byCookie, byCode, byTrackingId] = await Promise.all([
      writer.write(lead('organic@example.com', { referral: null, attribution: { utm_source: 'news' } })),
      writer.write(lead('cookie@example.com', { referral: null, attribution: { tid: 'a1b2c3d4-e5f6-4a5b-8c7d-9e0f1a2b3c4d' } })),
      writer.write(lead('code@example.com', { referral: 'partner7', attribution: {} })),
      writer.write(lead('tid@example.com', { referral: 'a1b2c3d4-e5f6-4a5b-8c7d-9e0f1a2b3c4d', attribution: {} })),
    ]);
    const [tx] = db.transactions;
    const statusOf = (email: string) => tx.affiliateStatuses[tx.keys.indexOf(email)];
    expect(statusOf('organic@example.com')).toBe('skipped: no referral');
    expect([statusOf('cookie@example.com'), statusOf('code@example.com'), statusOf('tid@example.com')]).toEqual([null, null, null]);
    const owed = (leadId: string) => tx.jobs.filter((_, i) => (tx.owed[i] as { leadId: string }).leadId === leadId).map(([name]) => name);
    expect(owed(organic.id)).toEqual(['abandoned-checkout-email']);
    for (const referred of [byCookie, byCode, byTrackingId])
      expect(owed(referred.id)).toEqual(['affiliate-signup', 'abandoned-checkout-email']);
  });

  it('writes every call of one event-loop turn in one transaction and owes a job per new lead in it', async () => {
    const results = await Promise.all(['c@example.com', 'a@example.com', 'b@example.com'].map((email) => writer.write(lead(email))));
    expect(db.transactions).toHaveLength(1);
    expect(db.transactions[0]).toMatchObject({ keys: ['a@example.com', 'b@example.com', 'c@example.com'], committed: true });
    expect(results.map((r) => r.id)).toEqual(['c@example.com', 'a@example.com', 'b@example.com'].map((key) => db.leads.get(key)));
    expect(db.transactions[0].owed).toEqual(
      ['a@example.com', 'b@example.com', 'c@example.com'].map((key) => ({ leadId: db.leads.get(key) })),
    );
  });

  it('starts a new batch for calls made in a later turn', async () => {
    await writer.write(lead('first@example.com'));
    await writer.write(lead('second@example.com'));
    expect(db.transactions.map((tx) => tx.keys)).toEqual([['first@example.com'], ['second@example.com']]);
  });

  it('sends a repeated e-mail, however cased and ASCII or not, to the next batch and keys it once', async () => {
    const [first, again, other] = await Promise.all([
      writer.write(lead('Äbc@example.com')),
      writer.write(lead('äBC@Example.com')),
      writer.write(lead('x@example.com')),
    ]);
    expect(db.transactions.map((tx) => tx.keys)).toEqual([['x@example.com', 'äbc@example.com'], ['äbc@example.com']]);
    expect(first).toEqual({ id: again.id, inserted: true });
    expect(again.inserted).toBe(false);
    expect(other.inserted).toBe(true);
    expect([...db.leads.keys()].sort()).toEqual(['x@example.com', 'äbc@example.com']);
    expect(db.transactions[1].owed).toEqual([]);
  });

  it('matches each caller to its own row by position, whatever order the rows come back in', async () => {
    const emails = Array.from({ length: 50 }, (_, i) => `p${String(i).padStart(2, '0')}@example.com`);
    const results = await Promise.all(emails.map((email) => writer.write(lead(email))));
    expect(db.transactions).toHaveLength(1);
    results.forEach((result, i) => expect(result.id).toBe(db.leads.get(emails[i])));
  });

  it('owes no job for a lead that already existed', async () => {
    await writer.write(lead('known@example.com'));
    const again = await writer.write(lead('KNOWN@example.com'));
    expect(again.inserted).toBe(false);
    expect(db.transactions[1].owed).toEqual([]);
    expect(db.transactions[0].owed).toEqual([{ leadId: again.id }]);
  });

  it('writes the members of a failed batch one by one, so only the offending one fails', async () => {
    const fault = dbError('XX000');
    db.failFor = { key: 'poison@example.com', error: fault };
    const emails = ['a@example.com', 'poison@example.com', 'b@example.com', 'c@example.com'];
    const settled = await Promise.allSettled(emails.map((email) => writer.write(lead(email))));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toBe(fault);
    expect(db.transactions[0]).toMatchObject({
      committed: false,
      keys: ['a@example.com', 'b@example.com', 'c@example.com', 'poison@example.com'],
    });
    expect(db.transactions.slice(1).map((tx) => [tx.keys, tx.committed])).toEqual([
      [['a@example.com'], true],
      [['b@example.com'], true],
      [['c@example.com'], true],
      [['poison@example.com'], false],
    ]);
    expect([...db.leads.keys()].sort()).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
    expect(db.transactions.flatMap((tx) => (tx.committed ? tx.owed : []))).toHaveLength(3);
  });

  it('answers 400 to the member whose values Postgres cannot store (class 22), not 500', async () => {
    db.failFor = { key: 'bad@example.com', error: dbError('22P05') };
    const settled = await Promise.allSettled(['bad@example.com', 'good@example.com'].map((email) => writer.write(lead(email))));
    expect(settled[0].status).toBe('rejected');
    expect((settled[0] as PromiseRejectedResult).reason).toBeInstanceOf(BadRequestException);
    expect(settled[1].status).toBe('fulfilled');
  });

  it('fails a lone write with its own error without retrying it', async () => {
    db.failFor = { key: 'alone@example.com', error: dbError('XX000') };
    await expect(writer.write(lead('alone@example.com'))).rejects.toMatchObject({ code: 'XX000' });
    expect(db.transactions).toHaveLength(1);
  });

  it.each([
    ['the pool is busy', new PoolBusyError('shared_connections')],
    ['Postgres is away', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
  ])('fails every member of a batch at once when %s, without writing them one by one', async (_, refusal) => {
    db.refuseConnections = refusal;
    const settled = await Promise.allSettled(['a@example.com', 'b@example.com', 'c@example.com'].map((email) => writer.write(lead(email))));
    expect(settled.map((s) => s.status === 'rejected' && s.reason)).toEqual([refusal, refusal, refusal]);
    expect(db.begun).toBe(1);
  });
});
