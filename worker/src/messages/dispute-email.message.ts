import { escapeHtml, formatAmount, type ReceiptEmail } from './receipt-email.message';

/** A dispute (chargeback) as the owner is told of it: no buyer's e-mail or name, the order reference finds them in admin. */
export interface DisputeNotice {
  orderId: string;
  providerDisputeId: string;
  status: 'disputed' | 'won' | 'lost';
  amountCents: number;
  currency: string;
  testOrder: boolean;
  /** `${PUBLIC_URL}/admin/orders`. */
  ordersUrl: string;
}

const WHAT: Readonly<Record<DisputeNotice['status'], string>> = {
  disputed: 'A buyer disputed a payment with their bank. Answer it with your evidence in the payment provider before its deadline.',
  won: 'The bank decided a dispute in your favour: the money stays with you.',
  lost: "The bank decided a dispute in the buyer's favour: the money went back to them, their access has ended and the affiliate commission and analytics were reversed.",
};

const TITLE: Readonly<Record<DisputeNotice['status'], string>> = { disputed: 'Payment disputed', won: 'Dispute won', lost: 'Dispute lost' };

/** The owner's e-mail about a dispute's new status, in text and escaped HTML. */
export function buildDisputeEmail(dispute: DisputeNotice, brandName: string): ReceiptEmail {
  const amount = formatAmount(dispute.amountCents, dispute.currency);
  const rows: Array<[string, string]> = [
    ['Amount', amount],
    ['Order reference', dispute.orderId],
    ['Dispute', dispute.providerDisputeId],
    ...(dispute.testOrder ? [['Mode', 'Test order (no real money)'] as [string, string]] : []),
  ];
  const title = `${TITLE[dispute.status]}: ${amount}`;
  const text = [
    WHAT[dispute.status],
    '',
    ...rows.map(([l, v]) => `${l}: ${v}`),
    '',
    `Orders: ${dispute.ordersUrl}`,
    '',
    `— ${brandName}`,
    '',
  ].join('\n');
  const h = escapeHtml;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${h(title)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#0b1324">
<h1 style="font-size:20px">${h(title)}</h1>
<p>${h(WHAT[dispute.status])}</p>
<table role="presentation">
${rows.map(([l, v]) => `<tr><th align="left" style="font-weight:normal;padding-right:8px">${h(l)}</th><td>${h(v)}</td></tr>`).join('\n')}
</table>
<p><a href="${h(dispute.ordersUrl)}">Open the orders screen</a></p>
<p>— ${h(brandName)}</p>
</body>
</html>
`;
  return { subject: `[${brandName}] ${title}`, html, text };
}
