import { site } from '@contracts/site/site';
import { defaultSiteDir } from '@contracts/site/site-folder';
import { loadEmailCopy } from './email-copy';
import { buildRefundEmail } from './refund-email.message';

/** The default site's e-mail copy under a brand whose names need escaping. */
const copy = loadEmailCopy({ ...site, brand: { ...site.brand, name: 'Brightpath <Coaching>' } }, defaultSiteDir(__dirname));
const refund = {
  orderId: '0b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10',
  planId: 'standard',
  amountCents: 9700,
  currency: 'USD',
  refundedAt: new Date('2026-03-04T10:00:00Z'),
  customerName: 'Ann "<b>" O\'Neil',
  endsAccess: true,
  accountUrl: 'https://example.com/account?x=<y>',
};

describe('buildRefundEmail', () => {
  it('says what was refunded and links to the account page, in text and escaped HTML', () => {
    const mail = buildRefundEmail(refund, copy);
    expect(mail.subject).toBe('Your Clear refund: $97.00');
    expect(mail.text).toContain('Amount refunded: $97.00');
    expect(mail.text).toContain('your access to Clear has ended');
    expect(mail.text).toContain('https://example.com/account?x=<y>');
    expect(mail.html).toContain('Ann &#34;&#60;b&#62;&#34; O&#39;Neil');
    expect(mail.html).toContain('href="https://example.com/account?x=&#60;y&#62;"');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain('Brightpath &#60;Coaching&#62;');
  });

  it("states the refund in the payment's own currency", () => {
    const euros = buildRefundEmail({ ...refund, amountCents: 8_900, currency: 'EUR' });
    expect(euros.subject).toBe('Your Clear refund: €89.00');
    expect(euros.text).toContain('We have refunded €89.00');
    const yen = buildRefundEmail({ ...refund, amountCents: 9_700, currency: 'jpy' });
    expect(yen.subject).toBe('Your Clear refund: ¥9,700');
    expect(yen.text).toContain('Amount refunded: ¥9,700');
  });

  it('keeps the access of a partial refund', () => {
    expect(buildRefundEmail({ ...refund, endsAccess: false }, copy).text).toContain('Your access to Clear is unchanged.');
  });
});
