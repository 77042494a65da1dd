import { fill } from '@contracts/site/site-copy';
import { emailCopy, type EmailCopy } from './email-copy';
import { EmailLayout } from './layout/email-layout';
import { formatAmount, type ReceiptEmail } from './receipt-email.message';

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
  const layout = new EmailLayout(copy);
  const html = layout.document({ title, heading: title, page: 'page' }, [
    layout.paragraph(what),
    layout.facts(rows),
    layout.action({ label: words.ordersLink, url: dispute.ordersUrl }, 'light'),
    layout.signature(),
  ]);
  return { subject: fill(words.subject, { title }), html, text };
}
