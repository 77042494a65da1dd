import { fill } from '@contracts/site/site-copy';
import { emailCopy, type EmailCopy } from './email-copy';
import { EmailLayout } from './layout/email-layout';
import { greetingOf } from './receipt-email.message';

export interface InvitationEmailInput {
  name: string;
  /** The private access link, `${PUBLIC_URL}/blackcard?token=…`. */
  link: string;
  expiresAt: Date;
}

export interface InvitationEmail {
  subject: string;
  html: string;
  text: string;
}

/** A first name as a greeting may use it: letters with hyphens or apostrophes inside, 40 at most. */
const FIRST_NAME = /^[\p{L}](?:[\p{L}'’-]*[\p{L}])?$/u;
const FIRST_NAME_MAX = 40;

/**
 * The first word of the name typed at the gate, when it reads as a first name; otherwise none.
 * Whoever submits the gate chooses the text, and the e-mail goes to somebody else: it must not
 * carry their free text (links, markup, messages) in the invitation's voice.
 */
export function greetingName(typed: string): string | null {
  const first = typed.trim().split(/\s+/)[0] ?? '';
  return first.length <= FIRST_NAME_MAX && FIRST_NAME.test(first) ? first : null;
}

/** The invitation with the private access link: the same words in the HTML and the plain-text part. */
export function buildInvitationEmail(input: InvitationEmailInput, copy: EmailCopy = emailCopy): InvitationEmail {
  const { common, invitation: words } = copy;
  const greeting = greetingOf(greetingName(input.name), common);
  const { intro, button } = words;
  const until = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(input.expiresAt);
  const validity = fill(words.validity, { date: until });

  const text = [greeting, '', intro, '', `${button}: ${input.link}`, '', validity, '', common.signature, ''].join('\n');

  const layout = new EmailLayout(copy);
  const html = layout.document({ title: words.title, heading: common.heading, page: 'pageDark' }, [
    layout.paragraph(greeting),
    layout.paragraph(intro),
    layout.action({ label: button, url: input.link }, 'dark'),
    layout.paragraph(validity),
    layout.signature(),
  ]);
  return { subject: words.subject, html, text };
}
