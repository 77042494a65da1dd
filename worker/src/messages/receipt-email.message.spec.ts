import { formatMoney, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS, planOf } from '@contracts/plans';
import { site } from '@contracts/site/site';
import { defaultSiteDir } from '@contracts/site/site-folder';
import { loadEmailCopy } from './email-copy';
import { escapeHtml } from './layout/email-layout';
import { buildReceipt, formatAmount, ReceiptOrder } from './receipt-email.message';

// Names and prices come from the site folder, so a seller's rename or price change keeps these green.
const { name: brandName, programName } = site.brand;
const twoMonth = planOf('2-month');
const sixMonth = planOf('6-month');
const sixCount = sixMonth.instalments ?? 1;
const cents = (amount: number) => toMinorUnits(amount, CURRENCY);
const paid = (amount: number) => formatMoney(cents(amount), CURRENCY, { decimals: 'always' });

const order: ReceiptOrder = {
  orderId: 'ord_7f3a9c',
  planId: twoMonth.id,
  amountCents: cents(twoMonth.amount),
  currency: CURRENCY,
  paidAt: new Date('2025-12-02T23:30:00Z'),
  customerName: 'Ada Lovelace',
};

describe('buildReceipt', () => {
  it('states plan, billing, amount in the site currency, date, order reference and the 12-month guarantee in both parts', () => {
    const receipt = buildReceipt(order);
    expect(receipt.subject).toBe(`Your ${programName} receipt: ${twoMonth.name}, ${paid(twoMonth.amount)}`);
    for (const part of [receipt.text, receipt.html]) {
      expect(part).toContain(twoMonth.name);
      expect(part).toContain(twoMonth.displayText);
      expect(part).toContain(paid(twoMonth.amount));
      expect(part).toContain('December 2, 2025');
      expect(part).toContain('ord_7f3a9c');
      expect(part).toContain('12-month money-back guarantee');
      expect(part).toContain(brandName);
      expect(part).toContain('Ada Lovelace');
    }
    expect(receipt.text).toContain(`Amount paid: ${paid(twoMonth.amount)}`);
    expect(receipt.text).toContain('Order reference: ord_7f3a9c');
  });

  it('lists the add-on (order bump) the first payment included as a line of its own, beside the plan', () => {
    const bump = OFFERS.bump ?? twoMonth;
    const total = cents(twoMonth.amount) + cents(bump.amount);
    const receipt = buildReceipt({ ...order, amountCents: total, addOn: { planId: bump.id, amountCents: cents(bump.amount) } });
    for (const part of [receipt.text, receipt.html]) {
      expect(part).toContain(twoMonth.name);
      expect(part).toContain(`${bump.name}: ${paid(bump.amount)}`);
    }
    expect(receipt.text).toContain(`Add-on: ${bump.name}: ${paid(bump.amount)}`);
    expect(receipt.text).toContain(`Amount paid: ${formatMoney(total, CURRENCY, { decimals: 'always' })}`);
    expect(buildReceipt(order).text).not.toContain('Add-on');
  });

  it('names a later payment (a renewal) and thanks the member for staying; the first payment has no such line', () => {
    const renewal = buildReceipt({ ...order, planId: OFFERS.default.id, amountCents: cents(OFFERS.default.amount), paymentNumber: 3 });
    for (const part of [renewal.text, renewal.html]) {
      expect(part).toContain('Payment 3');
      expect(part).toContain(`Thank you for staying with ${programName}.`);
    }
    expect(renewal.text).toContain('Payment: Payment 3');
    const first = buildReceipt({ ...order, paymentNumber: 1 });
    expect(first.text).not.toContain('Payment:');
    expect(first.text).toContain(`Thank you for joining ${programName}.`);
  });

  it("says 'Payment N of M' on every receipt of an instalment plan, the first included, and links the account page", () => {
    const withAccount = { accountUrl: 'https://clear.example/account' };
    const instalment = { ...order, planId: sixMonth.id, amountCents: cents(sixMonth.amount), paymentCount: sixCount };
    const first = buildReceipt({ ...instalment, paymentNumber: 1 }, withAccount);
    expect(first.subject).toBe(`Your ${programName} receipt: ${sixMonth.name}, ${paid(sixMonth.amount)}`);
    const fourth = buildReceipt({ ...instalment, paymentNumber: 4 }, withAccount);
    expect(first.text).toContain(`Payment: Payment 1 of ${sixCount}`);
    expect(fourth.text).toContain(`Payment: Payment 4 of ${sixCount}`);
    expect(fourth.html).toContain(`Payment 4 of ${sixCount}`);
    for (const part of [first.text, first.html]) expect(part).toContain('https://clear.example/account');
    expect(buildReceipt(order).text).not.toContain('/account');
  });

  it('takes the plan name from the catalogue, not from the caller', () => {
    const premium = planOf('premium');
    expect(buildReceipt({ ...order, planId: premium.id, amountCents: cents(premium.amount) }).text).toContain(`Plan: ${premium.name}`);
  });

  it('escapes every interpolated value in the HTML part', () => {
    const hostile = buildReceipt(
      { ...order, orderId: 'ord_<b>1</b>', customerName: '<script>alert("x")</script> & Co' },
      {},
      loadEmailCopy(
        { ...site, brand: { ...site.brand, name: 'Brand <img src=x onerror=alert(1)>', programName: "O'Clear" } },
        defaultSiteDir(__dirname),
      ),
    );
    expect(hostile.html).not.toMatch(/<script|<img|<b>1/);
    expect(hostile.html).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; Co');
    expect(hostile.html).toContain('ord_&#60;b&#62;1&#60;/b&#62;');
    expect(hostile.html).toContain('Brand &#60;img src=x onerror=alert(1)&#62;');
    expect(hostile.html).toContain('O&#39;Clear');
    expect(hostile.text).toContain('<script>alert("x")</script> & Co');
  });

  it('greets without a name when none is known', () => {
    const receipt = buildReceipt({ ...order, customerName: '  ' });
    expect(receipt.text.startsWith('Hi,\n')).toBe(true);
  });

  it('refuses an unknown plan id rather than describe the wrong plan', () => {
    expect(() => buildReceipt({ ...order, planId: 'gold' })).toThrow('unknown plan id');
  });

  it("states the amount in the payment's own currency: euros in cents, yen in whole yen", () => {
    const { id, name } = OFFERS.default;
    const euros = buildReceipt({ ...order, planId: id, amountCents: 8_900, currency: 'eur' });
    expect(euros.subject).toBe(`Your ${programName} receipt: ${name}, €89.00`);
    expect(euros.text).toContain('Amount paid: €89.00');
    const yen = buildReceipt({ ...order, planId: id, amountCents: 9_700, currency: 'JPY' });
    expect(yen.subject).toBe(`Your ${programName} receipt: ${name}, ¥9,700`);
    for (const part of [yen.text, yen.html]) expect(part).toContain('¥9,700');
  });
});

describe('formatAmount and escapeHtml', () => {
  it('formats minor units with every decimal of the currency', () => {
    expect(formatAmount(9700, 'USD')).toBe('$97.00');
    expect(formatAmount(99_700, 'usd')).toBe('$997.00');
    expect(formatAmount(37, 'USD')).toBe('$0.37');
    expect(formatAmount(9700, 'JPY')).toBe('¥9,700');
    expect(formatAmount(5120, 'KWD')).toBe('KWD\u00a05.120');
  });

  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;');
  });
});
