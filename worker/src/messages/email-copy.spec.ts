import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatMoney, toMinorUnits } from '@contracts/money';
import { CURRENCY, OFFERS } from '@contracts/plans';
import { site } from '@contracts/site/site';
import { defaultSiteDir } from '@contracts/site/site-folder';
import { SiteError } from '@contracts/site/site.schema';
import { loadEmailCopy } from './email-copy';
import { buildAccountLinkEmail } from './account-link-email.message';
import { buildReceipt } from './receipt-email.message';

const defaultDir = defaultSiteDir(__dirname);
const amountCents = toMinorUnits(OFFERS.default.amount, CURRENCY);
const order = {
  orderId: 'ord_1',
  planId: OFFERS.default.id,
  amountCents,
  currency: CURRENCY,
  paidAt: new Date('2026-01-02T00:00:00Z'),
  customerName: 'Ada',
};

describe("a site folder's e-mail copy", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'site-emails-'));
    cpSync(defaultDir, dir, { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const edit = (file: string, change: (copy: Record<string, any>) => void) => {
    const path = join(dir, 'emails', file);
    const copy = JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;
    change(copy);
    writeFileSync(path, JSON.stringify(copy));
  };

  it("gives the e-mails the seller's words, with the site's terms and the message's values filled in", () => {
    edit('receipt.json', (c) => {
      c.subject = '{brand}: paid {amount} for {plan}';
      c.guarantee = 'Not happy within 30 days? Your {program} money back.';
    });
    edit('common.json', (c) => (c.greetingNamed = 'Hello {name}!'));
    const receipt = buildReceipt(order, {}, loadEmailCopy(site, dir));
    expect(receipt.subject).toBe(
      `${site.brand.name}: paid ${formatMoney(amountCents, CURRENCY, { decimals: 'always' })} for ${OFFERS.default.name}`,
    );
    expect(receipt.text).toMatch(/^Hello Ada!\n/);
    expect(receipt.text).toContain(`Not happy within 30 days? Your ${site.brand.programName} money back.`);
    expect(receipt.html).toContain(`<p>Not happy within 30 days? Your ${site.brand.programName} money back.</p>`);
  });

  it("paints the e-mails in the theme's e-mail colours and font", () => {
    const path = join(dir, 'theme.json');
    const theme = JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;
    Object.assign(theme.email, { pageDark: '#102030', buttonDark: '#e11d48', buttonDarkText: '#fff', font: "'Inter', Arial, sans-serif" });
    writeFileSync(path, JSON.stringify(theme));
    const mail = buildAccountLinkEmail({ link: 'https://shop.example/account?token=t', validMinutes: 30 }, loadEmailCopy(site, dir));
    expect(mail.html).toContain(
      '<body style="margin:0;padding:24px;background:#102030;font-family:&#39;Inter&#39;, Arial, sans-serif;color:#0b1324">',
    );
    expect(mail.html).toContain('background:#e11d48;color:#fff;border-radius:6px');
  });

  it('names every bad file and field at once: missing, misspelt, mistyped, or an unknown placeholder', () => {
    edit('receipt.json', (c) => {
      delete c.guarantee;
      c.subjct = c.subject;
    });
    edit('membership.json', (c) => {
      c.ended.paragraphs = 'one paragraph';
      c.canceled.subject = 'Ends on {when}';
    });
    const theme = JSON.parse(readFileSync(join(dir, 'theme.json'), 'utf8')) as Record<string, any>;
    theme.email.muted = 'grey';
    writeFileSync(join(dir, 'theme.json'), JSON.stringify(theme));
    const receipt = join(dir, 'emails/receipt.json');
    const membership = join(dir, 'emails/membership.json');
    expect(() => loadEmailCopy(site, dir)).toThrow(SiteError);
    expect(() => loadEmailCopy(site, dir)).toThrow(
      [
        'The site folder has 5 problem(s):',
        `  ${receipt}: guarantee: is missing`,
        `  ${receipt}: subjct: is not a field of this file (check its spelling)`,
        `  ${membership}: ended.paragraphs: must be list, not text`,
        `  ${membership}: canceled.subject: {when} is not a term of this site or of this text (it may use {date})`,
        `  ${join(dir, 'theme.json')}: email.muted: must be a colour like #0b1324 (e-mail clients read hex only)`,
      ].join('\n'),
    );
  });

  it('stops the worker at boot when a file is missing, naming it', () => {
    rmSync(join(dir, 'emails', 'refund.json'));
    process.env.SITE_DIR = dir;
    try {
      expect(() => jest.isolateModules(() => require('./email-copy'))).toThrow(`${join(dir, 'emails/refund.json')}: cannot be read`);
    } finally {
      delete process.env.SITE_DIR;
    }
  });
});
