import { CURRENCY, findPlan } from '@contracts/plans';
import { fill } from '@contracts/site/site-copy';
import { emailCopy, type EmailCopy } from './email-copy';
import { buildNotice, NoticeEmail } from './notice-email.message';
import { formatAmount } from './receipt-email.message';

export interface MembershipMailLinks {
  /** `${PUBLIC_URL}/account`: where the buyer signs in to see payments, update the card or cancel. */
  accountUrl: string;
}

export interface FailedPaymentInput {
  planId: string;
  amountCents: number;
  currency: string;
  customerName?: string;
}

export interface EndedMembershipInput {
  planId: string;
  endedAt: Date;
  customerName?: string;
}

export interface CanceledMembershipInput {
  planId: string;
  endsAt: Date;
  customerName?: string;
}

const planName = (planId: string): string => findPlan(planId)?.name ?? planId;
const longDate = (date: Date): string => new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(date);

/** A renewal or later instalment could not be charged: update the card before the retries run out. */
export function buildPaymentFailedEmail(input: FailedPaymentInput, links: MembershipMailLinks, copy: EmailCopy = emailCopy): NoticeEmail {
  const words = copy.membership.paymentFailed;
  const amount = formatAmount(input.amountCents, input.currency.toUpperCase() || CURRENCY);
  return buildNotice(
    {
      subject: fill(words.subject, { amount }),
      customerName: input.customerName,
      paragraphs: words.paragraphs.map((p) => fill(p, { amount })),
      rows: [
        [words.labels.plan, planName(input.planId)],
        [words.labels.amountDue, amount],
      ],
      action: { label: words.action, url: links.accountUrl },
    },
    copy,
  );
}

/** The membership's subscription ended (payments failed, or canceled): access to the members area ended with it. */
export function buildMembershipEndedEmail(
  input: EndedMembershipInput,
  links: MembershipMailLinks,
  copy: EmailCopy = emailCopy,
): NoticeEmail {
  const words = copy.membership.ended;
  const date = longDate(input.endedAt);
  return buildNotice(
    {
      subject: fill(words.subject, { date }),
      customerName: input.customerName,
      paragraphs: words.paragraphs.map((p) => fill(p, { date })),
      rows: [[words.labels.plan, planName(input.planId)]],
      action: { label: words.action, url: links.accountUrl },
    },
    copy,
  );
}

/** The buyer set the membership to end with its current period: when it ends, that nothing more is charged, and how to undo it. */
export function buildMembershipCanceledEmail(
  input: CanceledMembershipInput,
  links: MembershipMailLinks,
  copy: EmailCopy = emailCopy,
): NoticeEmail {
  const words = copy.membership.canceled;
  const date = longDate(input.endsAt);
  return buildNotice(
    {
      subject: fill(words.subject, { date }),
      customerName: input.customerName,
      paragraphs: words.paragraphs.map((p) => fill(p, { date })),
      rows: [
        [words.labels.plan, planName(input.planId)],
        [words.labels.accessUntil, date],
      ],
      action: { label: words.action, url: links.accountUrl },
    },
    copy,
  );
}

export interface ResumingMembershipInput {
  planId: string;
  resumesAt: Date;
  customerName?: string;
}

/** A pause taken in the cancellation flow ends soon: when access and charges resume, at what price, and how to cancel instead. */
export function buildMembershipResumingEmail(
  input: ResumingMembershipInput,
  links: MembershipMailLinks,
  copy: EmailCopy = emailCopy,
): NoticeEmail {
  const words = copy.membership.resuming;
  const date = longDate(input.resumesAt);
  const price = findPlan(input.planId)?.displayText ?? '';
  return buildNotice(
    {
      subject: fill(words.subject, { date, price }),
      customerName: input.customerName,
      paragraphs: words.paragraphs.map((p) => fill(p, { date, price })),
      rows: [
        [words.labels.plan, planName(input.planId)],
        [words.labels.resumesOn, date],
      ],
      action: { label: words.action, url: links.accountUrl },
    },
    copy,
  );
}
