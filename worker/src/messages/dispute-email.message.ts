import { fill } from '@contracts/site/site-copy';
import { emailCopy, type EmailCopy } from './email-copy';
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

/** The owner's e-mail about a dispute's new status, in text and escaped HTML. */
export function buildDisputeEmail(dispute: DisputeNotice, copy: EmailCopy = emailCopy): ReceiptEmail {
  const { common, dispute: words } = copy;
  const amount = formatAmount(dispute.amountCents, dispute.currency);
  const rows: Array<[string, string]> = [
    [words.labels.amount, amount],
    [words.labels.orderReference, dispute.orderId],
    [words.labels.dispute, dispute.providerDisputeId],
    ...(dispute.testOrder ? [[words.labels.mode, words.testOrder] as [string, string]] : []),
  ];
  const { status, what } = words[dispute.status];
  const title = fill(words.title, { status, amount });
  const text = [
    what,
    '',
    ...rows.map(([l, v]) => `${l}: ${v}`),
    '',
    `${words.orders}: ${dispute.ordersUrl}`,
    '',
    common.signature,
    '',
  ].join('\n');
  const c = copy.colors;
  const h = escapeHtml;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${h(title)}</title></head>
<body style="font-family:${h(c.font)};color:${c.text}">
<h1 style="font-size:20px">${h(title)}</h1>
<p>${h(what)}</p>
<table role="presentation">
${rows.map(([l, v]) => `<tr><th align="left" style="font-weight:normal;padding-right:8px">${h(l)}</th><td>${h(v)}</td></tr>`).join('\n')}
</table>
<p><a href="${h(dispute.ordersUrl)}">${h(words.ordersLink)}</a></p>
<p>${h(common.signature)}</p>
</body>
</html>
`;
  return { subject: fill(words.subject, { title }), html, text };
}
