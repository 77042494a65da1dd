import { formatMoney, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS } from '@contracts/plans';
import { site } from '@contracts/site/site';
import { loadConfig } from '@core/config/app-config';
import type { RefundRepository } from '@core/database/repositories/refund.repository';
import type { SmtpMailer } from '../clients/smtp-mailer.client';
import type { ProviderCallLedger } from '../ledger/provider-call-ledger';
import { DisputeEmailHandler } from './dispute-email.handler';

/** A dispute of the default plan's price, in the site's currency, so a seller's price change keeps this green. */
const DISPUTED_CENTS = toMinorUnits(OFFERS.default.amount, CURRENCY);
const base = { DATABASE_URL: 'postgres://u:p@localhost:5432/db', REDIS_URL: 'redis://localhost:6379' };
const dispute = {
  id: 'd1',
  order_id: '0b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10',
  provider_dispute_id: 'dp_1',
  amount_cents: DISPUTED_CENTS,
  currency: CURRENCY.toLowerCase(),
  livemode: true,
};

function handler() {
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
  return { recorded, sent, handler: new DisputeEmailHandler(refunds, ledger, loadConfig(base), mailer) };
}

describe('DisputeEmailHandler', () => {
  afterEach(() => jest.restoreAllMocks());

  it("records that it did not e-mail anyone when site.json has no owner's address, rather than pretend it did", async () => {
    jest.replaceProperty(site.brand, 'ownerEmail', undefined);
    const { handler: h, recorded, sent } = handler();
    await expect(h.notify({ disputeId: 'd1', status: 'disputed' })).resolves.toBe('skipped: no brand.ownerEmail in site.json');
    expect(recorded).toEqual([['d1', 'owner-email:disputed', 'skipped: no brand.ownerEmail in site.json']]);
    expect(sent).toEqual([]);
  });

  it("e-mails the owner at site.json's brand.ownerEmail about the new status, once through the ledger", async () => {
    jest.replaceProperty(site.brand, 'ownerEmail', 'owner@example.com');
    const { handler: h, recorded, sent } = handler();
    await expect(h.notify({ disputeId: 'd1', status: 'disputed' })).resolves.toBe('sent');
    expect(sent).toEqual([
      expect.objectContaining({
        to: 'owner@example.com',
        subject: `[${site.brand.name}] Payment disputed: ${formatMoney(DISPUTED_CENTS, CURRENCY, { decimals: 'always' })}`,
      }),
    ]);
    expect(recorded).toEqual([['d1', 'owner-email:disputed', 'sent']]);
  });
});
