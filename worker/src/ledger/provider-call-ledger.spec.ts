import type {
  ProviderCallRepository,
  SideEffectClaim,
  SideEffectDetail,
  SideEffectStatus,
} from '@core/database/repositories/provider-call.repository';
import { ProviderAnswer, ProviderCallLedger } from './provider-call-ledger';

interface Row {
  key: string;
  kind: string;
  status: SideEffectStatus;
  attempts: number;
  detail: SideEffectDetail;
  last_error: string | null;
}

/**
 * The side_effects table in memory, answering the repository's four statements as Postgres
 * does (see provider-call.repository.ts), and recording each call with its arguments.
 */
class FakeSideEffects {
  readonly rows = new Map<string, Row>();
  readonly calls: Array<[string, unknown]> = [];
  /** Keys whose claim the "database" loses (as a row deleted meanwhile would be). */
  readonly vanishing = new Set<string>();
  failFinish: Error | null = null;
  failNoteError: Error | null = null;

  claim(inputs: ReadonlyArray<{ key: string; kind: string }>): Promise<SideEffectClaim[]> {
    this.calls.push(['claim', inputs.map((i) => ({ ...i }))]);
    const keys = inputs.map((i) => i.key);
    if (new Set(keys).size !== keys.length) {
      return Promise.reject(new Error('ON CONFLICT DO UPDATE command cannot affect row a second time'));
    }
    const claimed: SideEffectClaim[] = [];
    for (const { key, kind } of inputs) {
      if (this.vanishing.has(key)) continue;
      const row = this.rows.get(key);
      if (!row) {
        const fresh: Row = { key, kind, status: 'claimed', attempts: 1, detail: {}, last_error: null };
        this.rows.set(key, fresh);
        claimed.push(this.claimOf(fresh));
      } else if (row.status === 'claimed') {
        row.attempts += 1;
        claimed.push(this.claimOf(row));
      }
    }
    // RETURNING promises no order: answer backwards so the ledger must match rows by key.
    return Promise.resolve(claimed.reverse());
  }

  findByKeys(keys: readonly string[]): Promise<SideEffectClaim[]> {
    this.calls.push(['findByKeys', [...keys]]);
    const found = [...this.rows.values()].filter((row) => keys.includes(row.key) && !this.vanishing.has(row.key));
    return Promise.resolve(found.map((row) => this.claimOf(row)).reverse());
  }

  finish(outcomes: ReadonlyArray<{ key: string; status: Exclude<SideEffectStatus, 'claimed'>; detail: SideEffectDetail }>): Promise<void> {
    this.calls.push(['finish', outcomes.map((o) => ({ ...o }))]);
    if (this.failFinish) return Promise.reject(this.failFinish);
    for (const { key, status, detail } of outcomes) {
      const row = this.rows.get(key);
      if (row?.status === 'claimed') Object.assign(row, { status, detail, last_error: null });
    }
    return Promise.resolve();
  }

  noteError(key: string, message: string): Promise<void> {
    this.calls.push(['noteError', [key, message]]);
    if (this.failNoteError) return Promise.reject(this.failNoteError);
    const row = this.rows.get(key);
    if (row?.status === 'claimed') row.last_error = message;
    return Promise.resolve();
  }

  /** What RETURNING key, status, detail, attempts reads: a copy, as a query result is. */
  private claimOf(row: Row): SideEffectClaim {
    return { key: row.key, status: row.status, detail: { ...row.detail }, attempts: row.attempts };
  }

  callsOf(name: string): unknown[] {
    return this.calls.filter(([method]) => method === name).map(([, args]) => args);
  }
}

function ledgerOver(db = new FakeSideEffects()) {
  return { db, ledger: new ProviderCallLedger(db as unknown as ProviderCallRepository) };
}

/** A provider stand-in that answers in turn and records the idempotency key of every call. */
function provider(...answers: Array<ProviderAnswer | Error | string>) {
  const keys: string[] = [];
  const call = jest.fn((key: string): Promise<ProviderAnswer> => {
    keys.push(key);
    const answer = answers.shift();
    if (answer === undefined) return Promise.reject(new Error('provider called more often than expected'));
    if (answer instanceof Error) return Promise.reject(answer);
    // A string stands for what a careless client library may throw instead of an Error.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    if (typeof answer === 'string') return Promise.reject(answer);
    return Promise.resolve(answer);
  });
  return { call, keys };
}

const KEY = 'affiliate-signup:lead-1';

describe('ProviderCallLedger', () => {
  it('claims the key, calls the provider with it as the idempotency key, then records the answer', async () => {
    const { db, ledger } = ledgerOver();
    const { call, keys } = provider({ outcome: 'done', detail: { status: 200, partnerId: 'p-7' } });

    const result = await ledger.run('affiliate-signup', 'lead-1', call);

    expect(result).toEqual({
      key: KEY,
      status: 'done',
      detail: { status: 200, partnerId: 'p-7', outcome: 'done' },
      attempts: 1,
      replayed: false,
    });
    expect(keys).toEqual([KEY]);
    expect(db.calls.map(([method]) => method)).toEqual(['claim', 'finish']);
    expect(db.callsOf('claim')).toEqual([[{ key: KEY, kind: 'affiliate-signup' }]]);
    expect(db.callsOf('finish')).toEqual([[{ key: KEY, status: 'done', detail: { status: 200, partnerId: 'p-7', outcome: 'done' } }]]);
    expect(db.rows.get(KEY)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('records an answer without detail as its bare outcome', async () => {
    const { db, ledger } = ledgerOver();
    const result = await ledger.run('receipt-email', 'order-1', provider({ outcome: 'done' }).call);
    expect(result.detail).toEqual({ outcome: 'done' });
    expect(db.callsOf('finish')).toEqual([[{ key: 'receipt-email:order-1', status: 'done', detail: { outcome: 'done' } }]]);
  });

  it("counts a provider's duplicate answer as done: the effect happened on an earlier attempt", async () => {
    const { ledger } = ledgerOver();
    const result = await ledger.run('affiliate-signup', 'lead-1', provider({ outcome: 'duplicate', detail: { status: 409 } }).call);
    expect(result).toEqual({ key: KEY, status: 'done', detail: { status: 409, outcome: 'duplicate' }, attempts: 1, replayed: false });
  });

  it('records a refusal as failed, with its reason redacted and never overriding the outcome', async () => {
    const { db, ledger } = ledgerOver();
    const answer: ProviderAnswer = {
      outcome: 'rejected',
      reason: 'Affiliate service answered 400 for jane@example.com',
      detail: { status: 400, outcome: 'spoofed' },
    };

    const result = await ledger.run('affiliate-signup', 'lead-1', provider(answer).call);

    const detail = { status: 400, outcome: 'rejected', reason: 'Affiliate service answered 400 for [email]' };
    expect(result).toEqual({ key: KEY, status: 'failed', detail, attempts: 1, replayed: false });
    expect(db.callsOf('finish')).toEqual([[{ key: KEY, status: 'failed', detail }]]);
    expect(db.rows.get(KEY)?.status).toBe('failed');
  });

  it('never calls a finished key again: it answers with the recorded result', async () => {
    const { db, ledger } = ledgerOver();
    await ledger.run('affiliate-signup', 'lead-1', provider({ outcome: 'done', detail: { status: 200 } }).call);
    db.calls.length = 0;
    const again = provider();

    const result = await ledger.run('affiliate-signup', 'lead-1', again.call);

    expect(result).toEqual({ key: KEY, status: 'done', detail: { status: 200, outcome: 'done' }, attempts: 1, replayed: true });
    expect(again.call).not.toHaveBeenCalled();
    expect(db.calls).toEqual([
      ['claim', [{ key: KEY, kind: 'affiliate-signup' }]],
      ['findByKeys', [KEY]],
    ]);
  });

  it('replays a refusal as failed without calling the provider again', async () => {
    const { ledger } = ledgerOver();
    await ledger.run('meta-purchase', 'order-2', provider({ outcome: 'rejected', reason: 'bad pixel' }).call);
    const again = provider();
    const result = await ledger.run('meta-purchase', 'order-2', again.call);
    expect(result).toMatchObject({ status: 'failed', detail: { outcome: 'rejected', reason: 'bad pixel' }, replayed: true });
    expect(again.call).not.toHaveBeenCalled();
  });

  it('notes a failed call (redacted), rethrows it, and retries it later with the same key', async () => {
    const { db, ledger } = ledgerOver();
    const failure = new Error('connect ECONNREFUSED while sending jane@example.com');
    const { call, keys } = provider(failure, { outcome: 'done', detail: { status: 200 } });

    await expect(ledger.run('affiliate-signup', 'lead-1', call)).rejects.toBe(failure);
    expect(db.callsOf('noteError')).toEqual([[KEY, 'connect ECONNREFUSED while sending [email]']]);
    expect(db.callsOf('finish')).toEqual([]);
    expect(db.rows.get(KEY)).toMatchObject({ status: 'claimed', attempts: 1, last_error: 'connect ECONNREFUSED while sending [email]' });

    const result = await ledger.run('affiliate-signup', 'lead-1', call);
    expect(result).toEqual({ key: KEY, status: 'done', detail: { status: 200, outcome: 'done' }, attempts: 2, replayed: false });
    expect(keys).toEqual([KEY, KEY]);
  });

  it('notes a thrown non-Error by its text', async () => {
    const { db, ledger } = ledgerOver();
    await expect(ledger.run('ga4-purchase', 'order-3', provider('socket hang up').call)).rejects.toBe('socket hang up');
    expect(db.callsOf('noteError')).toEqual([['ga4-purchase:order-3', 'socket hang up']]);
  });

  it("rethrows the provider's error even when noting it fails too", async () => {
    const db = new FakeSideEffects();
    db.failNoteError = new Error('database gone');
    const { ledger } = ledgerOver(db);
    const failure = new Error('provider timeout');
    await expect(ledger.run('affiliate-signup', 'lead-1', provider(failure).call)).rejects.toBe(failure);
  });

  it('leaves the row claimed when the record fails (a crash after the call), so the next run calls again with the same key', async () => {
    const db = new FakeSideEffects();
    db.failFinish = new Error('worker died before recording');
    const { ledger } = ledgerOver(db);
    const { call, keys } = provider({ outcome: 'done', detail: { status: 200 } }, { outcome: 'duplicate', detail: { status: 409 } });

    await expect(ledger.run('affiliate-signup', 'lead-1', call)).rejects.toThrow('worker died before recording');
    expect(db.rows.get(KEY)).toMatchObject({ status: 'claimed', attempts: 1 });

    db.failFinish = null;
    const result = await ledger.run('affiliate-signup', 'lead-1', call);
    expect(result).toEqual({ key: KEY, status: 'done', detail: { status: 409, outcome: 'duplicate' }, attempts: 2, replayed: false });
    expect(keys).toEqual([KEY, KEY]);
    expect(db.rows.get(KEY)).toMatchObject({ status: 'done', attempts: 2, detail: { status: 409, outcome: 'duplicate' } });
  });

  it('records through record() on its own', async () => {
    const { db, ledger } = ledgerOver();
    await ledger.record('receipt-email:order-9', 'failed', { outcome: 'rejected', reason: 'no address' });
    expect(db.callsOf('finish')).toEqual([
      [{ key: 'receipt-email:order-9', status: 'failed', detail: { outcome: 'rejected', reason: 'no address' } }],
    ]);
  });

  it('shares one claim and one record statement among concurrent calls, each getting its own answer', async () => {
    const { db, ledger } = ledgerOver();
    const results = await Promise.all(
      ['lead-1', 'lead-2', 'lead-3'].map((lead) =>
        ledger.run('affiliate-signup', lead, (key) => Promise.resolve({ outcome: 'done', detail: { echoed: key } })),
      ),
    );

    expect(results.map((r) => [r.key, r.detail.echoed, r.replayed])).toEqual([
      ['affiliate-signup:lead-1', 'affiliate-signup:lead-1', false],
      ['affiliate-signup:lead-2', 'affiliate-signup:lead-2', false],
      ['affiliate-signup:lead-3', 'affiliate-signup:lead-3', false],
    ]);
    expect(db.callsOf('claim')).toEqual([
      [
        { key: 'affiliate-signup:lead-1', kind: 'affiliate-signup' },
        { key: 'affiliate-signup:lead-2', kind: 'affiliate-signup' },
        { key: 'affiliate-signup:lead-3', kind: 'affiliate-signup' },
      ],
    ]);
    expect(db.callsOf('findByKeys')).toEqual([]);
    expect(db.callsOf('finish')).toHaveLength(1);
    expect((db.callsOf('finish')[0] as unknown[]).length).toBe(3);
  });

  it('looks up only the finished keys of a shared claim', async () => {
    const { db, ledger } = ledgerOver();
    await ledger.run('affiliate-signup', 'lead-1', provider({ outcome: 'done', detail: { status: 200 } }).call);
    db.calls.length = 0;

    const [finished, fresh] = await Promise.all([
      ledger.run('affiliate-signup', 'lead-1', provider().call),
      ledger.run('affiliate-signup', 'lead-2', provider({ outcome: 'done' }).call),
    ]);

    expect(finished).toMatchObject({ key: KEY, status: 'done', replayed: true });
    expect(fresh).toMatchObject({ key: 'affiliate-signup:lead-2', status: 'done', attempts: 1, replayed: false });
    expect(db.callsOf('claim')).toHaveLength(1);
    expect(db.callsOf('findByKeys')).toEqual([[KEY]]);
  });

  it('never puts the same key twice in one claim statement', async () => {
    const { db, ledger } = ledgerOver();
    const { call, keys } = provider({ outcome: 'done' }, { outcome: 'duplicate' });

    const results = await Promise.all([ledger.run('affiliate-signup', 'lead-1', call), ledger.run('affiliate-signup', 'lead-1', call)]);

    // The second claim comes while the first call is still unrecorded: it counts another attempt.
    expect(db.callsOf('claim')).toEqual([[{ key: KEY, kind: 'affiliate-signup' }], [{ key: KEY, kind: 'affiliate-signup' }]]);
    expect(results.map((r) => [r.status, r.attempts])).toEqual([
      ['done', 1],
      ['done', 2],
    ]);
    expect(keys).toEqual([KEY, KEY]);
  });

  it('fails a key that was neither claimed nor found, and only that one', async () => {
    const db = new FakeSideEffects();
    db.vanishing.add('affiliate-signup:lead-9');
    const { ledger } = ledgerOver(db);
    const lost = provider();

    const [gone, fine] = await Promise.allSettled([
      ledger.run('affiliate-signup', 'lead-9', lost.call),
      ledger.run('affiliate-signup', 'lead-2', provider({ outcome: 'done' }).call),
    ]);

    expect(gone).toEqual({ status: 'rejected', reason: new Error('Side effect affiliate-signup:lead-9 was neither claimed nor found') });
    expect(fine).toMatchObject({ status: 'fulfilled', value: { key: 'affiliate-signup:lead-2', status: 'done' } });
    expect(lost.call).not.toHaveBeenCalled();
  });
});
