import { emailCopy, type EmailCopy } from './email-copy';
import { escapeHtml, greetingOf } from './receipt-email.message';

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
  const c = copy.colors;
  const h = escapeHtml;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${h(notice.subject)}</title></head>
<body style="margin:0;padding:24px;background:${c.page};font-family:${h(c.font)};color:${c.text}">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:${c.card};border-radius:8px;padding:24px">
<tr><td>
<h1 style="font-size:20px;margin:0 0 16px">${h(common.heading)}</h1>
<p>${h(greeting)}</p>
${notice.paragraphs.map((p) => `<p>${h(p)}</p>`).join('\n')}
${
  rows.length
    ? `<table role="presentation" style="width:100%;border-collapse:collapse;margin:16px 0">
${rows.map(([label, value]) => `<tr><th align="left" style="padding:6px 8px 6px 0;font-weight:normal;color:${c.muted}">${h(label)}</th><td style="padding:6px 0">${h(value)}</td></tr>`).join('\n')}
</table>`
    : ''
}
<p><a href="${h(notice.action.url)}" style="display:inline-block;background:${c.button};color:${c.buttonText};padding:12px 20px;border-radius:6px;text-decoration:none">${h(notice.action.label)}</a></p>
<p style="font-size:13px;color:${c.muted}">${h(notice.action.url)}</p>
<p>${h(common.signature)}</p>
</td></tr>
</table>
</body>
</html>
`;
  return { subject: notice.subject, html, text };
}
