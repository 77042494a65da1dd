import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { siteTerms } from './site-copy';
import { ROUTES } from '../routes';
import { loadCopy, loadSite, siteDir } from './site-folder';
import { pagesLeftOut } from './site-pages';
import { SPEC_SITE } from './spec-site.fixture';

const defaultSite = join(__dirname, '../../../../site');

describe('a site folder', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'site-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A site folder of the spec's site.json, edited by `edit`: what a seller's site/ says does not matter here. */
  const withSettings = (edit: (settings: Record<string, any>) => void = () => undefined): string => {
    const settings = structuredClone(SPEC_SITE) as Record<string, any>;
    edit(settings);
    writeFileSync(join(dir, 'site.json'), JSON.stringify(settings));
    return dir;
  };

  it('is the repository root site/ unless SITE_DIR names another', () => {
    // This run may itself name a seller's copy: put it back afterwards.
    const chosen = process.env.SITE_DIR;
    try {
      delete process.env.SITE_DIR;
      expect(siteDir(__dirname)).toBe(defaultSite);
      process.env.SITE_DIR = dir;
      expect(siteDir(__dirname)).toBe(dir);
    } finally {
      if (chosen === undefined) delete process.env.SITE_DIR;
      else process.env.SITE_DIR = chosen;
    }
  });

  it('reads the default site', () => {
    expect(loadSite(defaultSite).plans.map((p) => p.id)).toContain('standard');
  });

  it('names the file, the field and what is wrong, for every problem at once', () => {
    const broken = withSettings((s) => {
      s.plans[0].amount = -1;
      s.plans[1].id = 'standard';
      s.brand.siteUrl = 'www.example.com';
      s.plans[5].interval = undefined;
    });
    const file = join(broken, 'site.json');
    expect(() => loadSite(broken)).toThrow(
      [
        'The site folder has 5 problem(s):',
        `  ${file}: brand.siteUrl: must be the full address of the site, e.g. https://www.example.com`,
        `  ${file}: plans[0].amount: must be more than 0`,
        `  ${file}: plans[5].interval: a subscription needs an interval: 'month' or 'year'`,
        `  ${file}: plans[1].id: 'standard' is used by an earlier plan`,
        `  ${file}: offers.upgrade[0]: '6-month' is not a plan of site.json (plans: standard, 2-month, full-payment, payment-plan, premium, blackcard-vip, workbook)`,
      ].join('\n'),
    );
  });

  it('needs each wording of the guarantee, and gives them to copy files as terms', () => {
    const broken = withSettings((s) => {
      delete s.guarantee.short;
      s.guarantee.title = ' ';
    });
    const file = join(broken, 'site.json');
    expect(() => loadSite(broken)).toThrow(`  ${file}: guarantee.title: must not be empty\n  ${file}: guarantee.short:`);
    const terms = siteTerms(loadSite(withSettings()));
    expect([terms.guarantee, terms['guarantee:title'], terms['guarantee:short'], terms['guarantee:period']]).toEqual([
      '12-month money-back guarantee',
      '12-Month Money-Back Guarantee',
      '12-month guarantee',
      'a full 12 months',
    ]);
  });

  it('reads the offers, each role naming a plan of the catalogue', () => {
    expect(loadSite(withSettings()).offers).toEqual({
      default: 'standard',
      upgrade: ['6-month', '2-month', 'full-payment'],
      upgradeCta: '2-month',
      levelTwo: 'blackcard-vip',
      firstInstalmentButton: ['payment-plan'],
      bump: 'workbook',
    });
    const minimal = loadSite(withSettings((s) => (s.offers = { default: 'premium' })));
    expect(minimal.offers).toEqual({ default: 'premium', upgrade: [], firstInstalmentButton: [] });
  });

  it('refuses offers that name no plan, or the wrong kind of plan, saying which', () => {
    const broken = withSettings((s) => {
      s.offers.default = 'gold';
      s.offers.upgrade[1] = 'silver';
      s.offers.upgradeCta = 'premium';
      s.offers.levelTwo = 'vip';
      s.offers.firstInstalmentButton = ['full-payment'];
    });
    const file = join(broken, 'site.json');
    const plans = 'standard, 6-month, 2-month, full-payment, payment-plan, premium, blackcard-vip, workbook';
    expect(() => loadSite(broken)).toThrow(
      [
        'The site folder has 5 problem(s):',
        `  ${file}: offers.default: 'gold' is not a plan of site.json (plans: ${plans})`,
        `  ${file}: offers.upgrade[1]: 'silver' is not a plan of site.json (plans: ${plans})`,
        `  ${file}: offers.upgradeCta: 'premium' must be one of offers.upgrade`,
        `  ${file}: offers.levelTwo: 'vip' is not a plan of site.json (plans: ${plans})`,
        `  ${file}: offers.firstInstalmentButton[0]: 'full-payment' is not paid in instalments`,
      ].join('\n'),
    );
    expect(() => loadSite(withSettings((s) => delete s.offers))).toThrow(`${file}: offers: `);
  });

  it('takes as the add-on (offers.bump) only a one-time plan paid at once', () => {
    const withBump = (bump: string) => () => loadSite(withSettings((s) => (s.offers.bump = bump)));
    const file = join(dir, 'site.json');
    expect(withBump('standard')).toThrow(`  ${file}: offers.bump: 'standard' must be a one-time plan paid at once`);
    expect(withBump('6-month')).toThrow(`  ${file}: offers.bump: '6-month' must be a one-time plan paid at once`);
    expect(withBump('poster')).toThrow(`  ${file}: offers.bump: 'poster' is not a plan of site.json`);
    expect(loadSite(withSettings((s) => delete s.offers.bump)).offers.bump).toBeUndefined();
  });

  it("checks the sender's and the owner's addresses as e-mail addresses; the owner's may be left out", () => {
    const broken = withSettings((s) => {
      s.brand.sender = { name: 'Brightpath', address: 'Brightpath <receipts@brightpath.example>' };
      s.brand.ownerEmail = 'owner@localhost';
    });
    const file = join(broken, 'site.json');
    expect(() => loadSite(broken)).toThrow(
      [
        'The site folder has 2 problem(s):',
        `  ${file}: brand.sender.address: must be an e-mail address, e.g. receipts@example.com`,
        `  ${file}: brand.ownerEmail: must be an e-mail address, e.g. receipts@example.com`,
      ].join('\n'),
    );
    expect(loadSite(withSettings((s) => delete s.brand.ownerEmail)).brand.ownerEmail).toBeUndefined();
    expect(() => loadSite(withSettings((s) => delete s.brand.sender))).toThrow(`${file}: brand.sender: `);
  });

  it('refuses a file that is not JSON, or is missing, saying which', () => {
    writeFileSync(join(dir, 'site.json'), '{ "brand": ');
    expect(() => loadSite(dir)).toThrow(`${join(dir, 'site.json')}: is not valid JSON`);
    expect(() => loadSite(join(dir, 'nowhere'))).toThrow(/nowhere\/site\.json: cannot be read/);
  });
});

describe("a site folder's plan cards", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'site-cards-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('are checked against offers.upgrade when the file is read', () => {
    const settings = loadSite(defaultSite);
    const [offered, notOffered] = [settings.offers.upgrade[0], settings.plans.find((p) => !settings.offers.upgrade.includes(p.id))!.id];
    const cards = JSON.parse(readFileSync(join(defaultSite, 'copy/plan-cards.json'), 'utf8')) as { plan: string }[];
    mkdirSync(join(dir, 'copy'));
    writeFileSync(join(dir, 'copy/plan-cards.json'), JSON.stringify(cards.map((card) => (card.plan === offered ? { ...card, plan: notOffered } : card))));
    const file = join(dir, 'copy/plan-cards.json');
    expect(() => loadCopy(dir, defaultSite, 'copy/plan-cards.json', settings)).toThrow(
      `The site folder has 1 problem(s):\n  ${file}: (top level): has no card for '${offered}' of site.json offers.upgrade`,
    );
    expect(loadCopy<{ plan: string }[]>(defaultSite, defaultSite, 'copy/plan-cards.json', settings).map((card) => card.plan)).toEqual(settings.offers.upgrade);
  });
});

describe("a site folder's optional pages", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'site-pages-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const withPages = (pages: unknown): string => {
    const settings = JSON.parse(readFileSync(join(defaultSite, 'site.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'site.json'), JSON.stringify({ ...settings, pages }));
    return dir;
  };

  it('keep the invitation funnel unless site.json leaves it out', () => {
    expect(loadSite(defaultSite).pages).toEqual({ invitation: true });
    expect(pagesLeftOut(loadSite(defaultSite))).toEqual([]);
    expect(pagesLeftOut(loadSite(withPages({})))).toEqual([]);
    expect(pagesLeftOut(loadSite(withPages({ invitation: false })))).toEqual([ROUTES.invitation, ROUTES.blackcard]);
  });

  it('refuses a setting that is not one, saying which', () => {
    const file = join(dir, 'site.json');
    expect(() => loadSite(withPages({ invitation: 'no' }))).toThrow(`${file}: pages.invitation: `);
    expect(() => loadSite(withPages({ invitations: false }))).toThrow(`${file}: pages: `);
  });
});
