import { findPlan } from '@contracts/plans';
import { buildNotice, type NoticeEmail } from './notice-email.message';
import { formatAmount, type ReceiptBrand } from './receipt-email.message';

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
export function buildRefundEmail(refund: RefundNotice, brand: ReceiptBrand): NoticeEmail {
  const plan = findPlan(refund.planId)?.name ?? refund.planId;
  const amount = formatAmount(refund.amountCents, refund.currency);
  const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(refund.refundedAt);
  return buildNotice(
    {
      subject: `Your ${brand.programName} refund: ${amount}`,
      customerName: refund.customerName,
      paragraphs: [
        `We have refunded ${amount} for your ${brand.programName} purchase. Your bank usually shows it within 5 to 10 business days.`,
        refund.endsAccess
          ? `As the payment was refunded in full, your access to ${brand.programName} has ended.`
          : `Your access to ${brand.programName} is unchanged.`,
      ],
      rows: [
        ['Plan', plan],
        ['Amount refunded', amount],
        ['Date', date],
        ['Order reference', refund.orderId],
      ],
      action: { label: 'Your memberships and payments', url: refund.accountUrl },
    },
    brand,
  );
}
