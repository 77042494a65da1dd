import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { escapeHtml } from './layout/email-layout';
import { EMAIL_KINDS, type SampleEmail } from './email-samples';

/**
 * Writes each e-mail's HTML and plain-text part into `dir`, with an index.html that links them
 * under their subjects; returns the index's path.
 */
export function writeEmailPreviews(dir: string, emails: Record<(typeof EMAIL_KINDS)[number], SampleEmail>): string {
  const items = EMAIL_KINDS.map((kind) => {
    const { subject, html, text } = emails[kind];
    writeFileSync(join(dir, `${kind}.html`), html);
    writeFileSync(join(dir, `${kind}.txt`), text);
    return `<li><a href="${kind}.html">${escapeHtml(subject)}</a> (<a href="${kind}.txt">text</a>)</li>`;
  });
  const index = join(dir, 'index.html');
  writeFileSync(
    index,
    `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>E-mail preview</title></head>\n<body>\n<ul>\n${items.join('\n')}\n</ul>\n</body>\n</html>\n`,
  );
  return index;
}
