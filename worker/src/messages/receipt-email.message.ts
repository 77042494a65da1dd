import { formatMoney } from '@contracts/money';
import { CURRENCY, findPlan } from '@contracts/plans';
import { site } from '@contracts/site/site';

/** The paid order, as the payment provider confirmed it. No card data ever reaches a receipt. */
export interface ReceiptOrder {
  /** Our order id, shown as the order reference. */
  orderId: string;
  planId: string;
  /** What was charged, in the currency's minor units (cents; yen for JPY). */
  amountCents: number;
  /** The payment's own currency (ISO code, any case). */
  currency: string;
  paidAt: Date;
  customerName?: string;
  /** Which charge of the order this is (1: the first); later ones (renewals, instalments) say so. */
  paymentNumber?: number;
  /** An instalment plan's number of charges: every receipt of it says 'Payment N of M'. */
  paymentCount?: number;
}

export interface ReceiptBrand {
  brandName: string;
  programName: string;
  /** `${PUBLIC_URL}/account`: where the buyer sees payments, updates the card or cancels. */
  accountUrl?: string;
}

export interface ReceiptEmail {
  subject: string;
  html: string;
  text: string;
}

const GUARANTEE = `Your purchase is covered by our ${site.guarantee.name}.`;

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const DATE_FORMAT = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** Money as the e-mails show it, every decimal kept: '$97.00', '€89.00', '¥9,700'. */
export function formatAmount(amountCents: number, currency: string): string {
  return formatMoney(amountCents, currency, { decimals: 'always' });
}

/** The purchase receipt: the same facts in the HTML and the plain-text part. */
export function buildReceipt(order: ReceiptOrder, brand: ReceiptBrand): ReceiptEmail {
  // The catalogue's fallback to the standard plan suits a visitor's URL, not a receipt for money taken.
  const plan = findPlan(order.planId);
  if (!plan) throw new Error(`Receipt for an unknown plan id "${order.planId}"`);
  const amount = formatAmount(order.amountCents, order.currency ?? CURRENCY);
  const date = DATE_FORMAT.format(order.paidAt);
  const greeting = order.customerName?.trim() ? `Hi ${order.customerName.trim()},` : 'Hi,';
  const number = order.paymentNumber ?? 1;
  const later = number > 1;
  const payment = order.paymentCount ? `Payment ${number} of ${order.paymentCount}` : later ? `Payment ${number}` : null;
  const intro = later
    ? `Thank you for staying with ${brand.programName}. Your payment was received; this e-mail is your receipt.`
    : `Thank you for joining ${brand.programName}. Your payment was received; this e-mail is your receipt.`;
  const rows: Array<[string, string]> = [
    ['Plan', plan.name],
    ['Billing', plan.displayText],
    ...(payment ? [['Payment', payment] as [string, string]] : []),
    ['Amount paid', amount],
    ['Date', date],
    ['Order reference', order.orderId],
  ];

  const text = [
    greeting,
    '',
    intro,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    GUARANTEE,
    '',
    ...(brand.accountUrl ? [`Your payments, card and membership: ${brand.accountUrl}`, ''] : []),
    `— ${brand.brandName}`,
    '',
  ].join('\n');

  const h = escapeHtml;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${h(`Your ${brand.programName} receipt`)}</title></head>
<body style="margin:0;padding:24px;background:#f5f6f8;font-family:Arial,Helvetica,sans-serif;color:#0b1324">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<tr><td>
<h1 style="font-size:20px;margin:0 0 16px">${h(brand.brandName)}</h1>
<p>${h(greeting)}</p>
<p>${h(intro)}</p>
<table role="presentation" style="width:100%;border-collapse:collapse;margin:16px 0">
${rows.map(([label, value]) => `<tr><th align="left" style="padding:6px 8px 6px 0;font-weight:normal;color:#5b6472">${h(label)}</th><td style="padding:6px 0">${h(value)}</td></tr>`).join('\n')}
</table>
<p>${h(GUARANTEE)}</p>
${brand.accountUrl ? `<p>Your payments, card and membership: <a href="${h(brand.accountUrl)}">${h(brand.accountUrl)}</a></p>\n` : ''}<p>— ${h(brand.brandName)}</p>
</td></tr>
</table>
</body>
</html>
`;

  return { subject: `Your ${brand.programName} receipt: ${plan.name}, ${amount}`, html, text };
}
