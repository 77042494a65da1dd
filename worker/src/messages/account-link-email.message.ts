import { fill } from '@contracts/site/site-copy';
import { emailCopy, type EmailCopy } from './email-copy';
import { EmailLayout } from './layout/email-layout';

export interface AccountLinkEmailInput {
  /** The single-use sign-in link, `${PUBLIC_URL}/account?token=…`. */
  link: string;
  validMinutes: number;
}

export interface AccountLinkEmail {
  subject: string;
  html: string;
  text: string;
}

/** The account sign-in link: the same words in the HTML and the plain-text part; no name (the address is all we trust). */
export function buildAccountLinkEmail(input: AccountLinkEmailInput, copy: EmailCopy = emailCopy): AccountLinkEmail {
  const { common, accountLink: words } = copy;
  const { intro, button } = words;
  const validity = fill(words.validity, { minutes: input.validMinutes });
  const text = [common.greeting, '', intro, '', `${button}: ${input.link}`, '', validity, '', common.signature, ''].join('\n');

  const layout = new EmailLayout(copy);
  const html = layout.document({ title: words.title, heading: common.heading, page: 'pageDark' }, [
    layout.paragraph(common.greeting),
    layout.paragraph(intro),
    layout.action({ label: button, url: input.link }, 'dark'),
    layout.paragraph(validity),
    layout.signature(),
  ]);
  return { subject: words.subject, html, text };
}
