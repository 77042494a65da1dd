import { isPlanId, PLANS } from '@contracts/plans';
import { escapeHtml, formatAmount, type ReceiptBrand, type ReceiptEmail } from './receipt-email.message';

/** A refund as the buyer is told of it. */
export interface RefundNotice {
  orderId: string;
  planId: string;
  amountCents: number;
  currency: string;
  refundedAt: Date;
  customerName?: string;
  /** The refund ended the membership's access now. */
  endsAccess: boolean;
  /** `${PUBLIC_URL}/account`: where the buyer sees their memberships and payments. */
  accountUrl: string;
}

/** The buyer's refund e-mail: the same facts in the HTML and the plain-text part, every value escaped in the HTML. */
export function buildRefundEmail(refund: RefundNotice, brand: ReceiptBrand): ReceiptEmail {
  const plan = isPlanId(refund.planId) ? PLANS[refund.planId].name : refund.planId;
  const amount = formatAmount(refund.amountCents, refund.currency);
  const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(refund.refundedAt);
  const greeting = refund.customerName?.trim() ? `Hi ${refund.customerName.trim()},` : 'Hi,';
  const intro = `We have refunded ${amount} for your ${brand.programName} purchase. Your bank usually shows it within 5 to 10 business days.`;
  const access = refund.endsAccess
    ? `As the payment was refunded in full, your access to ${brand.programName} has ended.`
    : `Your access to ${brand.programName} is unchanged.`;
  const rows: Array<[string, string]> = [
    ['Plan', plan],
    ['Amount refunded', amount],
    ['Date', date],
    ['Order reference', refund.orderId],
  ];
  const accountLine = 'Your account page lists your memberships and payments:';
  const text = [
    greeting,
    '',
    intro,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    access,
    '',
    accountLine,
    refund.accountUrl,
    '',
    `— ${brand.brandName}`,
    '',
  ].join('\n');

  const h = escapeHtml;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${h(`Your ${brand.programName} refund`)}</title></head>
<body style="margin:0;padding:24px;background:#f5f6f8;font-family:Arial,Helvetica,sans-serif;color:#0b1324">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<tr><td>
<h1 style="font-size:20px;margin:0 0 16px">${h(brand.brandName)}</h1>
<p>${h(greeting)}</p>
<p>${h(intro)}</p>
<table role="presentation" style="width:100%;border-collapse:collapse;margin:16px 0">
${rows.map(([label, value]) => `<tr><th align="left" style="padding:6px 8px 6px 0;font-weight:normal;color:#5b6472">${h(label)}</th><td style="padding:6px 0">${h(value)}</td></tr>`).join('\n')}
</table>
<p>${h(access)}</p>
<p>${h(accountLine)} <a href="${h(refund.accountUrl)}">${h(refund.accountUrl)}</a></p>
<p>— ${h(brand.brandName)}</p>
</td></tr>
</table>
</body>
</html>
`;
  return { subject: `Your ${brand.programName} refund: ${amount}`, html, text };
}
