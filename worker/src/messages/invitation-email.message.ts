import { escapeHtml } from './receipt-email.message';

export interface InvitationEmailInput {
  name: string;
  /** The private access link, `${PUBLIC_URL}/blackcard?token=…`. */
  link: string;
  expiresAt: Date;
}

export interface InvitationEmailBrand {
  brandName: string;
  programName: string;
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
export function buildInvitationEmail(input: InvitationEmailInput, brand: InvitationEmailBrand): InvitationEmail {
  const name = greetingName(input.name);
  const greeting = name ? `Hi ${name},` : 'Hi,';
  const intro = `You've been invited to ${brand.programName}. Your private access link is below; it is yours alone, so please do not share it.`;
  const until = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(input.expiresAt);
  const validity = `The link works until ${until}.`;
  const button = 'Open my private access';

  const text = [greeting, '', intro, '', `${button}: ${input.link}`, '', validity, '', `— ${brand.brandName}`, ''].join('\n');

  const h = escapeHtml;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${h(`Your invitation to ${brand.programName}`)}</title></head>
<body style="margin:0;padding:24px;background:#0b0b0f;font-family:Arial,Helvetica,sans-serif;color:#0b1324">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<tr><td>
<h1 style="font-size:20px;margin:0 0 16px">${h(brand.brandName)}</h1>
<p>${h(greeting)}</p>
<p>${h(intro)}</p>
<p style="margin:24px 0"><a href="${h(input.link)}" style="display:inline-block;padding:12px 20px;background:#0b0b0f;color:#f5d77a;border-radius:6px;text-decoration:none;font-weight:bold">${h(button)}</a></p>
<p style="font-size:13px;color:#5b6472">If the button does not work, copy this address into your browser:<br>${h(input.link)}</p>
<p>${h(validity)}</p>
<p>— ${h(brand.brandName)}</p>
</td></tr>
</table>
</body>
</html>
`;

  return { subject: `Your private invitation to ${brand.programName}`, html, text };
}
