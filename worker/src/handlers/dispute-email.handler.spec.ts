import { loadConfig } from '@core/config/app-config';
import type { RefundRepository } from '@core/database/repositories/refund.repository';
import type { SmtpMailer } from '../clients/smtp-mailer.client';
import type { ProviderCallLedger } from '../ledger/provider-call-ledger';
import { DisputeEmailHandler } from './dispute-email.handler';

const base = { DATABASE_URL: 'postgres://u:p@localhost:5432/db', REDIS_URL: 'redis://localhost:6379' };
const dispute = {
  id: 'd1',
  order_id: '0b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10',
  provider_dispute_id: 'dp_1',
  amount_cents: 9700,
  currency: 'usd',
  livemode: true,
};

function handler(env: Record<string, string>) {
  const recorded: Array<[string, string, string]> = [];
  const sent: unknown[] = [];
  const refunds = {
    findDispute: () => Promise.resolve(dispute),
    recordDisputeEffect: (id: string, key: string, status: string) => Promise.resolve(void recorded.push([id, key, status])),
  } as unknown as RefundRepository;
  const mailer = {
    configured: true,
    send: (mail: unknown) => {
      sent.push(mail);
      return Promise.resolve({ outcome: 'done' });
    },
  } as unknown as SmtpMailer;
  const ledger = {
    run: async (_kind: string, _id: string, call: (key: string) => Promise<unknown>) => {
      await call('dispute-email:d1:disputed');
      return { status: 'done', detail: {} };
    },
  } as unknown as ProviderCallLedger;
  return { recorded, sent, handler: new DisputeEmailHandler(refunds, ledger, loadConfig({ ...base, ...env }), mailer) };
}

describe('DisputeEmailHandler', () => {
  it('records that it did not e-mail anyone when OWNER_EMAIL is not set, rather than pretend it did', async () => {
    const { handler: h, recorded, sent } = handler({});
    await expect(h.notify({ disputeId: 'd1', status: 'disputed' })).resolves.toBe('skipped: OWNER_EMAIL not set');
    expect(recorded).toEqual([['d1', 'owner-email:disputed', 'skipped: OWNER_EMAIL not set']]);
    expect(sent).toEqual([]);
  });

  it('e-mails the owner about the new status, once through the ledger', async () => {
    const { handler: h, recorded, sent } = handler({ OWNER_EMAIL: 'owner@example.com' });
    await expect(h.notify({ disputeId: 'd1', status: 'disputed' })).resolves.toBe('sent');
    expect(sent).toEqual([
      expect.objectContaining({ to: 'owner@example.com', subject: expect.stringContaining('Payment disputed: $97.00') }),
    ]);
    expect(recorded).toEqual([['d1', 'owner-email:disputed', 'sent']]);
  });

  it('refuses an OWNER_EMAIL that is not an address', () => {
    expect(() => loadConfig({ ...base, OWNER_EMAIL: 'not an address' })).toThrow(/OWNER_EMAIL/);
  });
});
