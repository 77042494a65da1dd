import { site } from '@contracts/site/site';
import { buildDisputeEmail } from './dispute-email.message';

const dispute = {
  orderId: '0b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10',
  providerDisputeId: 'dp_1',
  status: 'disputed' as const,
  amountCents: 9_700,
  currency: 'USD',
  testOrder: false,
  ordersUrl: 'https://clear.example/admin/orders',
};

describe('buildDisputeEmail', () => {
  it.each([
    ['USD', 9_700, '$97.00'],
    ['EUR', 8_900, '€89.00'],
    ['JPY', 9_700, '¥9,700'],
  ])('states a dispute of a %s payment in that currency', (currency, amountCents, shown) => {
    const mail = buildDisputeEmail({ ...dispute, currency, amountCents });
    expect(mail.subject).toBe(`[${site.brand.name}] Payment disputed: ${shown}`);
    expect(mail.text).toContain(`Amount: ${shown}`);
  });
});
