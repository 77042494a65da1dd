import { fill } from '@contracts/site/site-copy';
import { emailCopy, type EmailCopy } from './email-copy';
import { escapeHtml, greetingOf } from './receipt-email.message';

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
