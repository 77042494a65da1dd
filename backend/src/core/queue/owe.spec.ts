import type { SqlExecutor } from '../database/personal-data';
import { owe, type OwedJob } from './owe';

/** A stand-in for the caller's transaction: records each statement and answers with outbox ids. */
function fakeTransaction() {
  const statements: Array<{ sql: string; params: unknown[] }> = [];
  const manager = {
    query: jest.fn((sql: string, params: unknown[] = []) => {
      statements.push({ sql, params });
      const queues = params[0] as string[];
      return Promise.resolve(queues.map((_, i) => ({ id: `outbox-${i + 1}` })));
    }),
  };
  return { manager: manager as unknown as SqlExecutor, statements };
}

describe('owe', () => {
  it('sends no statement at all for no jobs', async () => {
    const { manager, statements } = fakeTransaction();
    await expect(owe(manager, [])).resolves.toEqual([]);
    expect(statements).toEqual([]);
  });

  it('writes every job into the outbox in one statement, each on its own queue, in order', async () => {
    const { manager, statements } = fakeTransaction();
    const jobs: OwedJob[] = [
      { name: 'affiliate-signup', data: { leadId: 'lead-1' } },
      { name: 'order-paid', data: { orderId: 'order-1' } },
      { name: 'payment-event', data: { eventId: 'evt_1' } },
      { name: 'invitation-email', data: { invitationId: 'inv-1', issue: 2, sealedToken: 'sealed' } },
      { name: 'abandoned-checkout-email', data: { leadId: 'lead-1' }, delaySeconds: 3600 },
    ];

    await expect(owe(manager, jobs)).resolves.toEqual(['outbox-1', 'outbox-2', 'outbox-3', 'outbox-4', 'outbox-5']);

    expect(statements).toHaveLength(1);
    expect(statements[0].sql).toMatch(/^INSERT INTO outbox \(queue, job_name, payload, available_at\)/);
    expect(statements[0].params).toEqual([
      ['tracking', 'payments', 'payments', 'invitations', 'invitations'],
      ['affiliate-signup', 'order-paid', 'payment-event', 'invitation-email', 'abandoned-checkout-email'],
      [
        '{"leadId":"lead-1"}',
        '{"orderId":"order-1"}',
        '{"eventId":"evt_1"}',
        '{"invitationId":"inv-1","issue":2,"sealedToken":"sealed"}',
        '{"leadId":"lead-1"}',
      ],
      // Due at once, but for the job owed an hour later.
      [null, null, null, null, 3600],
    ]);
  });

  it('passes the statement failure on to the caller, whose transaction then rolls back', async () => {
    const manager = { query: jest.fn().mockRejectedValue(new Error('outbox is read-only')) } as unknown as SqlExecutor;
    await expect(owe(manager, [{ name: 'affiliate-signup', data: { leadId: 'lead-1' } }])).rejects.toThrow('outbox is read-only');
  });
});
