import { formatMoney, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS, planOf } from '@contracts/plans';
import { site } from '@contracts/site/site';
import { defaultSiteDir } from '@contracts/site/site-folder';
import { loadEmailCopy } from './email-copy';
import { buildMembershipCanceledEmail, buildMembershipEndedEmail, buildPaymentFailedEmail } from './membership-email.message';

/** The default site's e-mail copy under a brand whose names need escaping. */
const copy = loadEmailCopy({ ...site, brand: { ...site.brand, name: 'Brightpath <Coaching>' } }, defaultSiteDir(__dirname));
const links = { accountUrl: 'https://clear.example/account' };
// Names and prices come from the site folder, so a seller's rename or price change keeps these green.
const { programName } = site.brand;
const standard = OFFERS.default;
const sixMonth = planOf('6-month');

describe('membership e-mails', () => {
  it('asks the buyer to update the card when a renewal could not be charged, with the amount and the account link', () => {
    const amountCents = toMinorUnits(standard.amount, CURRENCY);
    const shown = formatMoney(amountCents, CURRENCY, { decimals: 'always' });
    const mail = buildPaymentFailedEmail({ planId: standard.id, amountCents, currency: CURRENCY, customerName: 'Ada' }, links, copy);
    expect(mail.subject).toBe(`Action needed: your ${programName} payment of ${shown} failed`);
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain(standard.name);
      expect(part).toContain(shown);
      expect(part).toContain('https://clear.example/account');
      expect(part).toContain('Update your card');
    }
    expect(mail.text).toMatch(/^Hi Ada,/);
  });

  it('states a failed payment in its own currency', () => {
    const yen = buildPaymentFailedEmail({ planId: standard.id, amountCents: 9_700, currency: 'jpy' }, links);
    expect(yen.subject).toBe(`Action needed: your ${programName} payment of ¥9,700 failed`);
    const euros = buildPaymentFailedEmail({ planId: standard.id, amountCents: 8_900, currency: 'eur' }, links);
    expect(euros.text).toContain('€89.00');
  });

  it('says when the membership ended and escapes what it repeats in HTML', () => {
    const mail = buildMembershipEndedEmail(
      { planId: sixMonth.id, endedAt: new Date('2027-03-04T10:00:00Z'), customerName: '<b>Eve</b>' },
      links,
      copy,
    );
    expect(mail.subject).toBe(`Your ${programName} membership has ended`);
    expect(mail.text).toContain('March 4, 2027');
    expect(mail.text).toContain(sixMonth.name);
    expect(mail.html).not.toContain('<b>Eve</b>');
    expect(mail.html).toContain('&#60;b&#62;Eve&#60;/b&#62;');
    expect(mail.html).toContain('Brightpath &#60;Coaching&#62;');
  });

  it('confirms a cancellation with the date access ends and the way back', () => {
    const mail = buildMembershipCanceledEmail({ planId: standard.id, endsAt: new Date('2027-01-15T09:00:00Z') }, links, copy);
    expect(mail.subject).toBe(`Your ${programName} membership ends on January 15, 2027`);
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('you will not be charged again');
      expect(part).toContain('https://clear.example/account');
    }
    expect(mail.text).toMatch(/^Hi,/);
  });
});
