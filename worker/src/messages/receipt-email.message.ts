import { formatMoney } from '@contracts/money';
import { CURRENCY, findPlan } from '@contracts/plans';
import { fill } from '@contracts/site/site-copy';
import { emailCopy, type EmailCopy } from './email-copy';
import { EmailLayout } from './layout/email-layout';

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
  /** The add-on (order bump) the first payment included, and its part of `amountCents`. */
  addOn?: { planId: string; amountCents: number };
}

export interface ReceiptLinks {
  /** `${PUBLIC_URL}/account`: where the buyer sees payments, updates the card or cancels. */
  accountUrl?: string;
}

export interface ReceiptEmail {
  subject: string;
  html: string;
  text: string;
}

const DATE_FORMAT = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** Money as the e-mails show it, every decimal kept: '$10.00', '€10.00', '¥1,000'. */
export function formatAmount(amountCents: number, currency: string): string {
  return formatMoney(amountCents, currency, { decimals: 'always' });
}

/** 'Hi Ada,' with the buyer's name as given, else the plain greeting. */
export function greetingOf(name: string | null | undefined, common: EmailCopy['common']): string {
  return name?.trim() ? fill(common.greetingNamed, { name: name.trim() }) : common.greeting;
}

/** The purchase receipt: the same facts in the HTML and the plain-text part. */
export function buildReceipt(order: ReceiptOrder, links: ReceiptLinks = {}, copy: EmailCopy = emailCopy): ReceiptEmail {
  // The catalogue's fallback to the standard plan suits a visitor's URL, not a receipt for money taken.
  const plan = findPlan(order.planId);
  if (!plan) throw new Error(`Receipt for an unknown plan id "${order.planId}"`);
  const amount = formatAmount(order.amountCents, order.currency ?? CURRENCY);
  const date = DATE_FORMAT.format(order.paidAt);
  const { common, receipt: words } = copy;
  const greeting = greetingOf(order.customerName, common);
  const number = order.paymentNumber ?? 1;
  const later = number > 1;
  const payment = order.paymentCount
    ? fill(words.paymentOf, { number, count: order.paymentCount })
    : later
      ? fill(words.paymentNumber, { number })
      : null;
  const intro = later ? words.introLater : words.introFirst;
  const addOn = order.addOn && findPlan(order.addOn.planId);
  const rows: Array<[string, string]> = [
    [words.labels.plan, plan.name],
    [words.labels.billing, plan.displayText],
    ...(order.addOn
      ? [
          [
            words.labels.addOn,
            `${addOn?.name ?? order.addOn.planId}: ${formatAmount(order.addOn.amountCents, order.currency ?? CURRENCY)}`,
          ] as [string, string],
        ]
      : []),
    ...(payment ? [[words.labels.payment, payment] as [string, string]] : []),
    [words.labels.amountPaid, amount],
    [words.labels.date, date],
    [words.labels.orderReference, order.orderId],
  ];

  const text = [
    greeting,
    '',
    intro,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    words.guarantee,
    '',
    ...(links.accountUrl ? [`${words.account}: ${links.accountUrl}`, ''] : []),
    common.signature,
    '',
  ].join('\n');

  const layout = new EmailLayout(copy);
  const html = layout.document({ title: words.title, heading: common.heading, page: 'page' }, [
    layout.paragraph(greeting),
    layout.paragraph(intro),
    layout.facts(rows),
    layout.paragraph(words.guarantee),
    ...(links.accountUrl ? [layout.labelledLink({ label: words.account, url: links.accountUrl })] : []),
    layout.signature(),
  ]);

  return { subject: fill(words.subject, { plan: plan.name, amount }), html, text };
}
