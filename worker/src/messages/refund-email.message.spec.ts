import { formatMoney, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS } from '@contracts/plans';
import { site } from '@contracts/site/site';
import { defaultSiteDir } from '@contracts/site/site-folder';
import { loadEmailCopy } from './email-copy';
import { buildRefundEmail } from './refund-email.message';

/** The default site's e-mail copy under a brand whose names need escaping. */
const copy = loadEmailCopy({ ...site, brand: { ...site.brand, name: 'Brightpath <Coaching>' } }, defaultSiteDir(__dirname));
// Names and prices come from the site folder, so a seller's rename or price change keeps these green.
const { programName } = site.brand;
const amountCents = toMinorUnits(OFFERS.default.amount, CURRENCY);
const shown = formatMoney(amountCents, CURRENCY, { decimals: 'always' });
const refund = {
  orderId: '0b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10',
  planId: OFFERS.default.id,
  amountCents,
  currency: CURRENCY,
  refundedAt: new Date('2026-03-04T10:00:00Z'),
  customerName: 'Ann "<b>" O\'Neil',
  endsAccess: true,
  accountUrl: 'https://example.com/account?x=<y>',
};

describe('buildRefundEmail', () => {
  it('says what was refunded and links to the account page, in text and escaped HTML', () => {
    const mail = buildRefundEmail(refund, copy);
    expect(mail.subject).toBe(`Your ${programName} refund: ${shown}`);
    expect(mail.text).toContain(`Amount refunded: ${shown}`);
    expect(mail.text).toContain(`your access to ${programName} has ended`);
    expect(mail.text).toContain('https://example.com/account?x=<y>');
    expect(mail.html).toContain('Ann &#34;&#60;b&#62;&#34; O&#39;Neil');
    expect(mail.html).toContain('href="https://example.com/account?x=&#60;y&#62;"');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain('Brightpath &#60;Coaching&#62;');
  });

  it("states the refund in the payment's own currency", () => {
    const euros = buildRefundEmail({ ...refund, amountCents: 8_900, currency: 'EUR' });
    expect(euros.subject).toBe(`Your ${programName} refund: €89.00`);
    expect(euros.text).toContain('We have refunded €89.00');
    const yen = buildRefundEmail({ ...refund, amountCents: 9_700, currency: 'jpy' });
    expect(yen.subject).toBe(`Your ${programName} refund: ¥9,700`);
    expect(yen.text).toContain('Amount refunded: ¥9,700');
  });

  it('keeps the access of a partial refund', () => {
    expect(buildRefundEmail({ ...refund, endsAccess: false }, copy).text).toContain(`Your access to ${programName} is unchanged.`);
  });
});
