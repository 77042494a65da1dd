import { emailCopy, type EmailCopy } from './email-copy';
import { EmailLayout } from './layout/email-layout';
import { greetingOf } from './receipt-email.message';

/** A message about the buyer's membership (not marketing): a few paragraphs, an optional table of facts, and a link to act on. */
export interface Notice {
  subject: string;
  /** The buyer's name as given at checkout; the greeting falls back to 'Hi,' without one. */
  customerName?: string;
  paragraphs: string[];
  rows?: Array<[string, string]>;
  action: { label: string; url: string };
}

export interface NoticeEmail {
  subject: string;
  html: string;
  text: string;
}

/** The same words in the plain-text and the HTML part; every value is escaped in the HTML. */
export function buildNotice(notice: Notice, copy: EmailCopy = emailCopy): NoticeEmail {
  const { common } = copy;
  const greeting = greetingOf(notice.customerName, common);
  const rows = notice.rows ?? [];
  const text = [
    greeting,
    '',
    ...notice.paragraphs.flatMap((p) => [p, '']),
    ...(rows.length ? [...rows.map(([label, value]) => `${label}: ${value}`), ''] : []),
    `${notice.action.label}: ${notice.action.url}`,
    '',
    common.signature,
    '',
  ].join('\n');
  const layout = new EmailLayout(copy);
  const html = layout.document({ title: notice.subject, heading: common.heading, page: 'page' }, [
    layout.paragraph(greeting),
    ...notice.paragraphs.map((p) => layout.paragraph(p)),
    layout.facts(rows),
    layout.action(notice.action, 'light'),
    layout.signature(),
  ]);
  return { subject: notice.subject, html, text };
}
