import { buildInvitationEmail } from './invitation-email.message';

const brand = { brandName: 'Brightpath <Coaching>', programName: 'Clear & Co' };
const link = 'https://funnel.example/blackcard?token=abc_DEF-123&x="y"';

describe('buildInvitationEmail', () => {
  const mail = buildInvitationEmail(
    { name: "  <script>alert(1)</script> O'Hara ", link, expiresAt: new Date('2030-01-31T12:00:00Z') },
    brand,
  );

  it('puts the access link and its expiry in both parts', () => {
    expect(mail.text).toContain(link);
    expect(mail.text).toContain('January 31, 2030');
    expect(mail.html).toContain('href="https://funnel.example/blackcard?token=abc_DEF-123&#38;x=&#34;y&#34;"');
    expect(mail.html).toContain('January 31, 2030');
  });

  it('escapes every value in the HTML part', () => {
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&#60;script&#62;alert(1)&#60;/script&#62; O&#39;Hara');
    expect(mail.html).toContain('Brightpath &#60;Coaching&#62;');
    expect(mail.html).toContain('Clear &#38; Co');
  });

  it('names the programme in the subject and the brand in the signature', () => {
    expect(mail.subject).toBe('Your private invitation to Clear & Co');
    expect(mail.text).toContain("Hi <script>alert(1)</script> O'Hara,");
    expect(mail.text.trim().endsWith('— Brightpath <Coaching>')).toBe(true);
  });
});
