import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { emailCopy } from '../email-copy';
import { EMAIL_TEMPLATES_FILE, emailTemplatesSource } from './email-layout.components';
import { EmailLayout, escapeHtml } from './email-layout';

const root = resolve(__dirname, '..', '..', '..', '..');

describe('the precompiled e-mail templates', () => {
  it('are what the React Email components render now (run `npm run email:compile` after editing them)', () => {
    expect(readFileSync(join(root, EMAIL_TEMPLATES_FILE), 'utf8')).toBe(emailTemplatesSource());
  });
});

describe('EmailLayout', () => {
  const layout = new EmailLayout(emailCopy);

  it('escapes every text slot, and takes the blocks it made itself as markup', () => {
    const html = layout.document({ title: 'T<1>', heading: 'H&"', page: 'page' }, [layout.paragraph(`<b>'x'</b>`)]);
    expect(html).toContain(`<title>${escapeHtml('T<1>')}</title>`);
    expect(html).toContain(`>${escapeHtml('H&"')}</h1>`);
    expect(html).toContain(`<p>${escapeHtml(`<b>'x'</b>`)}</p>`);
    expect(html).not.toContain('<b>');
  });

  it('never reads slots inside a value: text that looks like a slot stays text', () => {
    expect(layout.paragraph('{{text}} {{contentHtml}}')).toBe('<p>{{text}} {{contentHtml}}</p>');
    expect(layout.document({ title: '{{heading}}', heading: 'Brand', page: 'page' }, [])).toContain('<title>{{heading}}</title>');
  });

  it('leaves out the facts table when there are no facts', () => {
    expect(layout.facts([])).toBe('');
    expect(layout.facts([['Plan', 'A & B']])).toContain(`>Plan</th><td style="padding:6px 0">A &#38; B</td>`);
  });

  it('paints the page, the card and the buttons in the theme colours', () => {
    const c = emailCopy.colors;
    expect(layout.document({ title: 't', heading: 'h', page: 'pageDark' }, [])).toContain(`background:${c.pageDark};`);
    expect(layout.action({ label: 'Go', url: 'https://x.example/?a=1&b=2' }, 'dark')).toContain(
      `background:${c.buttonDark};color:${c.buttonDarkText};border-radius:6px`,
    );
    expect(layout.action({ label: 'Go', url: 'https://x.example/' }, 'light')).toContain(`background:${c.button};color:${c.buttonText};`);
  });
});
