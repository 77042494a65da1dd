import { OFFERS } from '@contracts/plans';
import { site } from '@contracts/site/site';
import { buildAbandonedCheckoutEmail } from './abandoned-checkout-email.message';

const input = {
  name: 'Ana <Lopez>',
  planName: OFFERS.default.name,
  checkoutLink: 'https://shop.example/checkout?plan=standard&email=ana%40example.com&name=Ana',
  unsubscribeLink: 'https://shop.example/api/unsubscribe?token=abc.def',
};

describe('buildAbandonedCheckoutEmail', () => {
  it('links back to the checkout in both parts and greets by name, escaped in HTML', () => {
    const mail = buildAbandonedCheckoutEmail(input);
    expect(mail.subject).toBe(`Your ${site.brand.name} membership is one step away`);
    expect(mail.text).toContain(`Finish joining: ${input.checkoutLink}`);
    expect(mail.text.startsWith('Hi Ana <Lopez>,')).toBe(true);
    expect(mail.html).toContain('href="https://shop.example/checkout?plan=standard&#38;email=ana%40example.com&#38;name=Ana"');
    expect(mail.html).toContain('Hi Ana &#60;Lopez&#62;,');
    expect(mail.html).not.toContain('<Lopez>');
  });

  it('greets plainly without a name', () => {
    expect(buildAbandonedCheckoutEmail({ ...input, name: null }).text.startsWith('Hi,\n')).toBe(true);
  });

  it('carries a visible unsubscribe link and the RFC 8058 one-click header fields', () => {
    const mail = buildAbandonedCheckoutEmail(input);
    expect(mail.text).toContain(`Unsubscribe: ${input.unsubscribeLink}`);
    expect(mail.html).toContain(`<a href="${input.unsubscribeLink}" style="color:#5b6472">Unsubscribe</a>`);
    expect(mail.headers).toEqual({
      'List-Unsubscribe': `<${input.unsubscribeLink}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });
});
