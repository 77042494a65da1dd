import { site } from '@contracts/site/site';
import { defaultSiteDir } from '@contracts/site/site-folder';
import { loadEmailCopy } from './email-copy';
import { buildAccountLinkEmail } from './account-link-email.message';

/** The default site's e-mail copy under a brand whose names need escaping. */
const copy = loadEmailCopy({ ...site, brand: { ...site.brand, name: 'Clear & <Co>' } }, defaultSiteDir(__dirname));

describe('buildAccountLinkEmail', () => {
  const link = 'https://clear.example.com/account?token=abc_DEF-123&x=<b>';
  const mail = buildAccountLinkEmail({ link, validMinutes: 30 }, copy);

  it('carries the link and its validity in both parts', () => {
    expect(mail.text).toContain(`Sign in to my account: ${link}`);
    expect(mail.text).toContain('works once, for 30 minutes');
    expect(mail.html).toContain('href="https://clear.example.com/account?token=abc_DEF-123&#38;x=&#60;b&#62;"');
    expect(mail.subject).toBe('Your sign-in link for Clear & <Co>');
  });

  it('escapes everything it puts into the HTML', () => {
    expect(mail.html).not.toContain('<Co>');
    expect(mail.html).toContain('Clear &#38; &#60;Co&#62;');
  });
});
