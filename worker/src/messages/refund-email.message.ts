import { findPlan } from '@contracts/plans';
import { fill } from '@contracts/site/site-copy';
import { emailCopy, type EmailCopy } from './email-copy';
import { buildNotice, type NoticeEmail } from './notice-email.message';
import { formatAmount } from './receipt-email.message';

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
export function buildRefundEmail(refund: RefundNotice, copy: EmailCopy = emailCopy): NoticeEmail {
  const words = copy.refund;
  const plan = findPlan(refund.planId)?.name ?? refund.planId;
  const amount = formatAmount(refund.amountCents, refund.currency);
  const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(refund.refundedAt);
  return buildNotice(
    {
      subject: fill(words.subject, { amount }),
      customerName: refund.customerName,
      paragraphs: [fill(words.refunded, { amount }), refund.endsAccess ? words.accessEnded : words.accessUnchanged],
      rows: [
        [words.labels.plan, plan],
        [words.labels.amountRefunded, amount],
        [words.labels.date, date],
        [words.labels.orderReference, refund.orderId],
      ],
      action: { label: words.action, url: refund.accountUrl },
    },
    copy,
  );
}
