/**
 * The funnel spec's site.json (its catalogue, spec section 3), as the default site folder first
 * words it. The catalogue's and site.json's specs hold the code to it through a folder of their
 * own: a seller edits site/ (renames the plans, prices them in euros) and the rest of the suite
 * follows the site, so the spec's words live here.
 */
export const SPEC_SITE = {
  brand: {
    name: 'Brightpath Coaching',
    siteUrl: 'https://www.brightpath.example',
    programName: 'Clear',
    methodName: 'CLEAR Method',
    founderName: 'Jordan Avery',
    sender: { name: 'Brightpath Coaching', address: 'receipts@brightpath.example' },
    ownerEmail: 'owner@brightpath.example',
  },
  guarantee: { name: '12-month money-back guarantee', title: '12-Month Money-Back Guarantee', short: '12-month guarantee', period: 'a full 12 months' },
  currency: 'USD',
  plans: [
    { id: 'standard', name: 'Standard Access', amount: 97, kind: 'subscription', interval: 'month', product: 'clear' },
    { id: '6-month', name: '6-Month Plan', amount: 250, kind: 'one-time', instalments: 6, product: 'clear' },
    { id: '2-month', name: '2-Month Plan', amount: 550, kind: 'one-time', instalments: 2, product: 'clear' },
    { id: 'full-payment', name: 'Full Payment', amount: 997, kind: 'one-time', product: 'clear' },
    { id: 'payment-plan', name: '3-Payment Plan', amount: 37, kind: 'one-time', instalments: 3, display: '{instalments} x {amount}', product: 'clear' },
    { id: 'premium', name: 'Elite Access', amount: 297, kind: 'subscription', interval: 'month', product: 'elite' },
    { id: 'blackcard-vip', name: 'Black Card APEX', amount: 997, kind: 'one-time', product: 'blackcard' },
    { id: 'workbook', name: 'CLEAR Method Workbook', amount: 27, kind: 'one-time', product: 'workbook' },
  ],
  offers: {
    default: 'standard',
    upgrade: ['6-month', '2-month', 'full-payment'],
    upgradeCta: '2-month',
    levelTwo: 'blackcard-vip',
    firstInstalmentButton: ['payment-plan'],
    bump: 'workbook',
  },
};
