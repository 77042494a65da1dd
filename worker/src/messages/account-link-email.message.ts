import { fill } from '@contracts/site/site-copy';
import { emailCopy, type EmailCopy } from './email-copy';
import { escapeHtml } from './receipt-email.message';

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

  const c = copy.colors;
  const h = escapeHtml;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${h(words.title)}</title></head>
<body style="margin:0;padding:24px;background:${c.pageDark};font-family:${h(c.font)};color:${c.text}">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:${c.card};border-radius:8px;padding:24px">
<tr><td>
<h1 style="font-size:20px;margin:0 0 16px">${h(common.heading)}</h1>
<p>${h(common.greeting)}</p>
<p>${h(intro)}</p>
<p style="margin:24px 0"><a href="${h(input.link)}" style="display:inline-block;padding:12px 20px;background:${c.buttonDark};color:${c.buttonDarkText};border-radius:6px;text-decoration:none;font-weight:bold">${h(button)}</a></p>
<p style="font-size:13px;color:${c.muted}">${h(common.buttonFallback)}<br>${h(input.link)}</p>
<p>${h(validity)}</p>
<p>${h(common.signature)}</p>
</td></tr>
</table>
</body>
</html>
`;
  return { subject: words.subject, html, text };
}
