import { CARD_ERRORS } from './sandbox-card-errors';
import { passesLuhn, readCard } from './sandbox-cards';

const card = (number: string, expMonth = 12, expYear = 2034, cvc = '123') => ({ number, expMonth, expYear, cvc });
const now = new Date('2026-06-15T00:00:00Z');

describe('sandbox test cards', () => {
  it("names Stripe's test card outcomes", () => {
    expect(readCard(card('4242 4242 4242 4242'), now)).toEqual({ ok: true, outcome: 'succeeds', last4: '4242' });
    expect(readCard(card('4000000000000002'), now)).toMatchObject({ ok: true, outcome: 'declined' });
    expect(readCard(card('4000000000009995'), now)).toMatchObject({ ok: true, outcome: 'insufficient_funds' });
    expect(readCard(card('4000 0025 0000 3155'), now)).toMatchObject({ ok: true, outcome: 'requires_authentication' });
    expect(readCard(card('4000 0000 0000 0259'), now)).toEqual({ ok: true, outcome: 'disputed', last4: '0259' });
  });

  it('lets any other Luhn-valid number succeed and refuses the rest', () => {
    expect(readCard(card('5555555555554444'), now)).toMatchObject({ ok: true, outcome: 'succeeds', last4: '4444' });
    expect(readCard(card('4242424242424241'), now)).toEqual({ ok: false, error: CARD_ERRORS.invalid_number });
    expect(readCard(card('abcd'), now)).toEqual({ ok: false, error: CARD_ERRORS.invalid_number });
    expect(passesLuhn('79927398713')).toBe(true);
    expect(passesLuhn('79927398710')).toBe(false);
  });

  it('refuses an expiry in the past but accepts the current month', () => {
    expect(readCard(card('4242424242424242', 5, 2026), now)).toEqual({ ok: false, error: CARD_ERRORS.expired });
    expect(readCard(card('4242424242424242', 6, 26), now)).toMatchObject({ ok: true });
    expect(CARD_ERRORS.expired.message).toBe("Your card's expiration date is in the past.");
  });

  it('refuses a missing security code', () => {
    expect(readCard(card('4242424242424242', 12, 2030, '1'), now)).toEqual({ ok: false, error: CARD_ERRORS.invalid_cvc });
  });
});
