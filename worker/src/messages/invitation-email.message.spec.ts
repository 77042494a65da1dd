import { site } from '@contracts/site/site';
import { defaultSiteDir } from '@contracts/site/site-folder';
import { loadEmailCopy } from './email-copy';
import { buildInvitationEmail, greetingName } from './invitation-email.message';

/** The default site's e-mail copy under a brand whose names need escaping. */
const copy = loadEmailCopy(
  { ...site, brand: { ...site.brand, name: 'Brightpath <Coaching>', programName: 'Clear & Co' } },
  defaultSiteDir(__dirname),
);
const link = 'https://funnel.example/blackcard?token=abc_DEF-123&x="y"';

describe('buildInvitationEmail', () => {
  const mail = buildInvitationEmail(
    { name: "  <script>alert(1)</script> O'Hara ", link, expiresAt: new Date('2030-01-31T12:00:00Z') },
    copy,
  );

  it('puts the access link and its expiry in both parts', () => {
    expect(mail.text).toContain(link);
    expect(mail.text).toContain('January 31, 2030');
    expect(mail.html).toContain('href="https://funnel.example/blackcard?token=abc_DEF-123&#38;x=&#34;y&#34;"');
    expect(mail.html).toContain('January 31, 2030');
  });

  it('escapes every value in the HTML part, and carries none of the typed name that is not a first name', () => {
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('script');
    expect(mail.html).not.toContain('Hara');
    expect(mail.html).toContain('Brightpath &#60;Coaching&#62;');
    expect(mail.html).toContain('Clear &#38; Co');
  });

  it('names the programme in the subject and the brand in the signature', () => {
    expect(mail.subject).toBe('Your private invitation to Clear & Co');
    expect(mail.text.startsWith('Hi,\n')).toBe(true);
    expect(mail.text).not.toContain('script');
    expect(mail.text.trim().endsWith('— Brightpath <Coaching>')).toBe(true);
  });
});

describe('greetingName', () => {
  it.each([
    ['  Jane Doe ', 'Jane'],
    ["O'Hara", "O'Hara"],
    ['Anne-Marie Smith', 'Anne-Marie'],
    ['Zoë', 'Zoë'],
    ['A'.repeat(40), 'A'.repeat(40)],
    // Only the first word: the link typed after it never reaches the e-mail.
    ['Visit http://evil.example', 'Visit'],
  ])('greets %j as %j', (typed, expected) => expect(greetingName(typed)).toBe(expected));

  it.each([
    ['A'.repeat(41)],
    ['http://evil.example'],
    ['www.evil.example now'],
    ['<b>Jane</b>'],
    ['Jane!'],
    ['J4ne'],
    ['-Jane'],
    [''],
    ['   '],
  ])('does not greet %j by name', (typed) => expect(greetingName(typed)).toBeNull());

  it('uses the first name only in the e-mail', () => {
    const mail = buildInvitationEmail({ name: 'Jane Click-here-to-claim', link, expiresAt: new Date('2030-01-31T12:00:00Z') }, copy);
    expect(mail.text.startsWith('Hi Jane,\n')).toBe(true);
    expect(mail.text).not.toContain('Click');
    expect(mail.html).not.toContain('Click');
  });
});
