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
export function buildAccountLinkEmail(input: AccountLinkEmailInput, brand: { brandName: string }): AccountLinkEmail {
  const intro = `Here is your link to sign in to your ${brand.brandName} account, where you can see your membership and payments, cancel or resume your membership and update your card.`;
  const validity = `The link works once, for ${input.validMinutes} minutes. If you did not ask for it, you can ignore this e-mail.`;
  const button = 'Sign in to my account';
  const text = ['Hi,', '', intro, '', `${button}: ${input.link}`, '', validity, '', `— ${brand.brandName}`, ''].join('\n');

  const h = escapeHtml;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${h(`Sign in to your ${brand.brandName} account`)}</title></head>
<body style="margin:0;padding:24px;background:#0b0b0f;font-family:Arial,Helvetica,sans-serif;color:#0b1324">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<tr><td>
<h1 style="font-size:20px;margin:0 0 16px">${h(brand.brandName)}</h1>
<p>Hi,</p>
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
  return { subject: `Your sign-in link for ${brand.brandName}`, html, text };
}
