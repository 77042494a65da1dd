import { fill } from '@contracts/site/site-copy';
import { emailCopy, type EmailCopy } from './email-copy';
import { EmailLayout } from './layout/email-layout';

export interface AbandonedCheckoutEmailInput {
  /** The lead's name as they typed it; null: a plain greeting. */
  name: string | null;
  /** The plan's display name, e.g. 'Monthly Plan'. */
  planName: string;
  /** `${PUBLIC_URL}/checkout?plan=…&email=…&name=…`: no token, the checkout asks for nothing else. */
  checkoutLink: string;
  /** `${PUBLIC_URL}/api/unsubscribe?token=…`: the signed one-click unsubscribe endpoint. */
  unsubscribeLink: string;
}

export interface AbandonedCheckoutEmail {
  subject: string;
  html: string;
  text: string;
  /** RFC 2369 and RFC 8058: mail clients show an unsubscribe button that POSTs to the link. */
  headers: Record<string, string>;
}

/**
 * The abandoned-checkout reminder, a marketing e-mail: the same words in the HTML and the plain
 * text part, a visible unsubscribe link in both, and the List-Unsubscribe header fields.
 */
export function buildAbandonedCheckoutEmail(input: AbandonedCheckoutEmailInput, copy: EmailCopy = emailCopy): AbandonedCheckoutEmail {
  const { common, abandonedCheckout: words } = copy;
  const greeting = input.name ? fill(common.greetingNamed, { name: input.name }) : common.greeting;
  const intro = fill(words.intro, { plan: input.planName });
  const { button, footer, unsubscribe } = words;
  const text = [
    greeting,
    '',
    intro,
    '',
    `${button}: ${input.checkoutLink}`,
    '',
    common.signature,
    '',
    `${footer} ${unsubscribe}: ${input.unsubscribeLink}`,
    '',
  ].join('\n');

  const layout = new EmailLayout(copy);
  const html = layout.document({ title: words.title, heading: common.heading, page: 'pageDark' }, [
    layout.paragraph(greeting),
    layout.paragraph(intro),
    layout.action({ label: button, url: input.checkoutLink }, 'dark'),
    layout.signature(),
    layout.unsubscribe(footer, { label: unsubscribe, url: input.unsubscribeLink }),
  ]);
  return {
    subject: words.subject,
    html,
    text,
    headers: { 'List-Unsubscribe': `<${input.unsubscribeLink}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
