import { fill } from '@contracts/site/site-copy';
import { emailCopy, type EmailCopy } from './email-copy';
import { escapeHtml } from './receipt-email.message';

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

  const c = copy.colors;
  const h = escapeHtml;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${h(words.title)}</title></head>
<body style="margin:0;padding:24px;background:${c.pageDark};font-family:${h(c.font)};color:${c.text}">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:${c.card};border-radius:8px;padding:24px">
<tr><td>
<h1 style="font-size:20px;margin:0 0 16px">${h(common.heading)}</h1>
<p>${h(greeting)}</p>
<p>${h(intro)}</p>
<p style="margin:24px 0"><a href="${h(input.checkoutLink)}" style="display:inline-block;padding:12px 20px;background:${c.buttonDark};color:${c.buttonDarkText};border-radius:6px;text-decoration:none;font-weight:bold">${h(button)}</a></p>
<p style="font-size:13px;color:${c.muted}">${h(common.buttonFallback)}<br>${h(input.checkoutLink)}</p>
<p>${h(common.signature)}</p>
<p style="font-size:12px;color:${c.muted};border-top:1px solid ${c.line};padding-top:12px">${h(footer)} <a href="${h(input.unsubscribeLink)}" style="color:${c.muted}">${h(unsubscribe)}</a></p>
</td></tr>
</table>
</body>
</html>
`;
  return {
    subject: words.subject,
    html,
    text,
    headers: { 'List-Unsubscribe': `<${input.unsubscribeLink}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
