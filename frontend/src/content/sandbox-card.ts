/**
 * The sandbox's 'Test mode' card form (checkout, and /account's card update): its own module, so
 * /account's card form does not ship the rest of checkout's copy.
 */
export const sandboxCard = {
  badge: 'Test mode',
  intro: 'Test cards (no real card is charged)',
  testCards: [
    { number: '4242 4242 4242 4242', outcome: 'success' },
    { number: '4000 0000 0000 0002', outcome: 'declined' },
    { number: '4000 0000 0000 9995', outcome: 'insufficient funds' },
    { number: '4000 0025 0000 3155', outcome: 'authentication' },
    { number: '4000 0027 6000 3184', outcome: 'authentication on every payment' },
  ],
  testCardHint: 'Any future expiry date and any 3-digit CVC.',
  cardNumber: 'Card number',
  expiry: 'Expiry (MM / YY)',
  expiryPlaceholder: 'MM / YY',
  cvc: 'CVC',
  postalCode: 'Postal code (optional)',
  errors: {
    number: 'Your card number is incomplete.',
    expiry: "Your card's expiration date is incomplete.",
    expiryPast: "Your card's expiration year is in the past.",
    cvc: "Your card's security code is incomplete.",
  },
};
