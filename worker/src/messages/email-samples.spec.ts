import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emailCopy } from './email-copy';
import { writeEmailPreviews } from './email-preview';
import { EMAIL_KINDS, sampleEmails } from './email-samples';

describe('the e-mail samples of `npm run email:preview`', () => {
  it('cover every e-mail the site folder has words for, each membership notice apart', () => {
    const { colors: _colors, common: _common, membership, ...others } = emailCopy;
    expect([...EMAIL_KINDS].sort()).toEqual([...Object.keys(others), ...Object.keys(membership)].sort());
  });

  it.each(EMAIL_KINDS)('renders the %s e-mail as a whole document and a plain-text part', (kind) => {
    const mail = sampleEmails()[kind];
    expect(mail.subject).not.toBe('');
    expect(mail.html).toMatch(/^<!DOCTYPE html[^>]*><html dir="ltr" lang="en">/);
    expect(mail.html).toMatch(/<\/body><\/html>$/);
    expect(mail.html).not.toMatch(/\{\{\w+\}\}/);
    expect(mail.text).toContain(emailCopy.common.signature);
  });

  it('writes each kind, HTML and text, with an index that links them all', () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-preview-'));
    try {
      const emails = sampleEmails();
      const index = readFileSync(writeEmailPreviews(dir, emails), 'utf8');
      for (const kind of EMAIL_KINDS) {
        expect(index).toContain(`<a href="${kind}.html">`);
        expect(readFileSync(join(dir, `${kind}.html`), 'utf8')).toBe(emails[kind].html);
        expect(readFileSync(join(dir, `${kind}.txt`), 'utf8')).toBe(emails[kind].text);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
