import { CURRENCY, findPlan } from '@contracts/plans';
import { buildNotice, NoticeEmail } from './notice-email.message';
import { formatAmount } from './receipt-email.message';

export interface MembershipMailBrand {
  brandName: string;
  programName: string;
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
export function buildPaymentFailedEmail(input: FailedPaymentInput, brand: MembershipMailBrand): NoticeEmail {
  const amount = formatAmount(input.amountCents, input.currency || CURRENCY);
  return buildNotice(
    {
      subject: `Action needed: your ${brand.programName} payment of ${amount} failed`,
      customerName: input.customerName,
      paragraphs: [
        `We could not charge your card for your ${brand.programName} membership. Nothing is wrong with your membership yet: we will try the card again over the next few days.`,
        'Please update your card so the next attempt goes through. If every attempt fails, your membership ends and your access to the members area with it.',
      ],
      rows: [
        ['Plan', planName(input.planId)],
        ['Amount due', amount],
      ],
      action: { label: 'Update your card', url: brand.accountUrl },
    },
    brand,
  );
}

/** The membership's subscription ended (payments failed, or canceled): access to the members area ended with it. */
export function buildMembershipEndedEmail(input: EndedMembershipInput, brand: MembershipMailBrand): NoticeEmail {
  return buildNotice(
    {
      subject: `Your ${brand.programName} membership has ended`,
      customerName: input.customerName,
      paragraphs: [
        `Your ${brand.programName} membership ended on ${longDate(input.endedAt)}, and with it your access to the members area. You will not be charged again.`,
        'If you did not expect this, or you would like to come back, your account page shows your membership and payments.',
      ],
      rows: [['Plan', planName(input.planId)]],
      action: { label: 'View your account', url: brand.accountUrl },
    },
    brand,
  );
}

/** The buyer set the membership to end with its current period: when it ends, that nothing more is charged, and how to undo it. */
export function buildMembershipCanceledEmail(input: CanceledMembershipInput, brand: MembershipMailBrand): NoticeEmail {
  const ends = longDate(input.endsAt);
  return buildNotice(
    {
      subject: `Your ${brand.programName} membership ends on ${ends}`,
      customerName: input.customerName,
      paragraphs: [
        `Your ${brand.programName} membership is canceled as you asked. You keep full access to the members area until ${ends}, and you will not be charged again.`,
        'Changed your mind? Until that date you can resume your membership on your account page, and nothing changes.',
      ],
      rows: [
        ['Plan', planName(input.planId)],
        ['Access until', ends],
      ],
      action: { label: 'Resume or view your membership', url: brand.accountUrl },
    },
    brand,
  );
}
