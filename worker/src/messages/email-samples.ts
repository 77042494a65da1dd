import { toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS } from '@contracts/plans';
import { buildAbandonedCheckoutEmail } from './abandoned-checkout-email.message';
import { buildAccountLinkEmail } from './account-link-email.message';
import { buildDisputeEmail } from './dispute-email.message';
import { emailCopy, type EmailCopy } from './email-copy';
import { buildInvitationEmail } from './invitation-email.message';
import {
  buildMembershipCanceledEmail,
  buildMembershipEndedEmail,
  buildMembershipResumingEmail,
  buildPaymentFailedEmail,
} from './membership-email.message';
import { buildReceipt } from './receipt-email.message';
import { buildRefundEmail } from './refund-email.message';

/** One e-mail as it is sent: what `npm run email:preview` writes and the render benchmark times. */
export interface SampleEmail {
  subject: string;
  html: string;
  text: string;
}

/**
 * Every e-mail the worker sends, one per copy (emails/*.json, each membership notice apart), on
 * made-up data with the site's own default plan, currency and words.
 */
export const EMAIL_KINDS = [
  'receipt',
  'refund',
  'dispute',
  'paymentFailed',
  'ended',
  'canceled',
  'resuming',
  'invitation',
  'abandonedCheckout',
  'accountLink',
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

const BASE_URL = 'https://funnel.example';
const ACCOUNT = { accountUrl: `${BASE_URL}/account` };
const SENT_AT = new Date('2030-01-15T12:00:00Z');
const LATER = new Date('2030-02-15T12:00:00Z');

const plan = OFFERS.default;
const amountCents = toMinorUnits(plan.amount, CURRENCY);
const customerName = 'Ada Lovelace';
const orderId = '0b6f1f0e-3c1a-4c57-9a51-2b8f3c2d9e10';

/** How each kind's sample is built, the way the worker builds it, in the copy given. */
export const SAMPLE_EMAILS: Readonly<Record<EmailKind, (copy: EmailCopy) => SampleEmail>> = {
  receipt: (copy) =>
    buildReceipt({ orderId, planId: plan.id, amountCents, currency: CURRENCY, paidAt: SENT_AT, customerName }, ACCOUNT, copy),
  refund: (copy) =>
    buildRefundEmail(
      { orderId, planId: plan.id, amountCents, currency: CURRENCY, refundedAt: SENT_AT, customerName, endsAccess: true, ...ACCOUNT },
      copy,
    ),
  dispute: (copy) =>
    buildDisputeEmail(
      {
        orderId,
        providerDisputeId: 'dp_sample',
        status: 'disputed',
        amountCents,
        currency: CURRENCY,
        testOrder: true,
        ordersUrl: `${BASE_URL}/admin/orders`,
      },
      copy,
    ),
  paymentFailed: (copy) => buildPaymentFailedEmail({ planId: plan.id, amountCents, currency: CURRENCY, customerName }, ACCOUNT, copy),
  ended: (copy) => buildMembershipEndedEmail({ planId: plan.id, endedAt: SENT_AT, customerName }, ACCOUNT, copy),
  canceled: (copy) => buildMembershipCanceledEmail({ planId: plan.id, endsAt: LATER, customerName }, ACCOUNT, copy),
  resuming: (copy) => buildMembershipResumingEmail({ planId: plan.id, resumesAt: LATER, customerName }, ACCOUNT, copy),
  invitation: (copy) => buildInvitationEmail({ name: customerName, link: `${BASE_URL}/blackcard?token=sample`, expiresAt: LATER }, copy),
  abandonedCheckout: (copy) =>
    buildAbandonedCheckoutEmail(
      {
        name: customerName,
        planName: plan.name,
        checkoutLink: `${BASE_URL}/checkout?plan=${encodeURIComponent(plan.id)}&email=ada%40example.com`,
        unsubscribeLink: `${BASE_URL}/api/unsubscribe?token=sample`,
      },
      copy,
    ),
  accountLink: (copy) => buildAccountLinkEmail({ link: `${BASE_URL}/account?token=sample`, validMinutes: 30 }, copy),
};

/** Each kind's sample e-mail, in `copy` (the site's by default). */
export function sampleEmails(copy: EmailCopy = emailCopy): Record<EmailKind, SampleEmail> {
  return Object.fromEntries(EMAIL_KINDS.map((kind) => [kind, SAMPLE_EMAILS[kind](copy)])) as Record<EmailKind, SampleEmail>;
}
