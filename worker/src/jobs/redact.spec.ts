import { redact } from './redact';

describe('redact', () => {
  it('removes e-mail addresses, ASCII or not, wherever they appear', () => {
    expect(redact('Affiliate said: "Jane.Doe+x@Example.com" already tracked; Äbc@exämple.de too')).toBe(
      'Affiliate said: "[email]" already tracked; [email] too',
    );
  });

  it('caps long messages', () => {
    expect(redact('x'.repeat(2000))).toHaveLength(501);
  });

  it('leaves ordinary messages alone', () => {
    expect(redact('Affiliate service answered 503')).toBe('Affiliate service answered 503');
  });
});
