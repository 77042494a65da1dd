import { site } from '@contracts/site/site';
import { defaultSiteDir } from '@contracts/site/site-folder';
import { loadEmailCopy } from './email-copy';
import { buildReceipt, escapeHtml, formatAmount, ReceiptOrder } from './receipt-email.message';

const order: ReceiptOrder = {
  orderId: 'ord_7f3a9c',
  planId: '2-month',
  amountCents: 55_000,
  currency: 'USD',
  paidAt: new Date('2025-12-02T23:30:00Z'),
  customerName: 'Ada Lovelace',
};

describe('buildReceipt', () => {
  it('states plan, billing, amount in USD, date, order reference and the 12-month guarantee in both parts', () => {
    const receipt = buildReceipt(order);
    expect(receipt.subject).toBe('Your Clear receipt: 2-Month Plan, $550.00');
    for (const part of [receipt.text, receipt.html]) {
      expect(part).toContain('2-Month Plan');
      expect(part).toContain('$550/month for 2 months');
      expect(part).toContain('$550.00');
      expect(part).toContain('December 2, 2025');
      expect(part).toContain('ord_7f3a9c');
      expect(part).toContain('12-month money-back guarantee');
      expect(part).toContain('Brightpath Coaching');
      expect(part).toContain('Ada Lovelace');
    }
    expect(receipt.text).toContain('Amount paid: $550.00');
    expect(receipt.text).toContain('Order reference: ord_7f3a9c');
  });

  it('names a later payment (a renewal) and thanks the member for staying; the first payment has no such line', () => {
    const renewal = buildReceipt({ ...order, planId: 'standard', amountCents: 9_700, paymentNumber: 3 });
    for (const part of [renewal.text, renewal.html]) {
      expect(part).toContain('Payment 3');
      expect(part).toContain('Thank you for staying with Clear.');
    }
    expect(renewal.text).toContain('Payment: Payment 3');
    const first = buildReceipt({ ...order, paymentNumber: 1 });
    expect(first.text).not.toContain('Payment:');
    expect(first.text).toContain('Thank you for joining Clear.');
  });

  it("says 'Payment N of M' on every receipt of an instalment plan, the first included, and links the account page", () => {
    const withAccount = { accountUrl: 'https://clear.example/account' };
    const first = buildReceipt({ ...order, planId: '6-month', amountCents: 25_000, paymentNumber: 1, paymentCount: 6 }, withAccount);
    expect(first.subject).toBe('Your Clear receipt: 6-Month Plan, $250.00');
    const fourth = buildReceipt({ ...order, planId: '6-month', amountCents: 25_000, paymentNumber: 4, paymentCount: 6 }, withAccount);
    expect(first.text).toContain('Payment: Payment 1 of 6');
    expect(fourth.text).toContain('Payment: Payment 4 of 6');
    expect(fourth.html).toContain('Payment 4 of 6');
    for (const part of [first.text, first.html]) expect(part).toContain('https://clear.example/account');
    expect(buildReceipt(order).text).not.toContain('/account');
  });

  it('takes the plan name from the catalogue, not from the caller', () => {
    expect(buildReceipt({ ...order, planId: 'premium', amountCents: 29_700 }).text).toContain('Plan: Elite Access');
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
    const euros = buildReceipt({ ...order, planId: 'standard', amountCents: 8_900, currency: 'eur' });
    expect(euros.subject).toBe('Your Clear receipt: Standard Access, €89.00');
    expect(euros.text).toContain('Amount paid: €89.00');
    const yen = buildReceipt({ ...order, planId: 'standard', amountCents: 9_700, currency: 'JPY' });
    expect(yen.subject).toBe('Your Clear receipt: Standard Access, ¥9,700');
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
