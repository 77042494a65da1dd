import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { siteTerms } from './site-copy';
import { loadSite, siteDir } from './site-folder';

const defaultSite = join(__dirname, '../../../../site');

describe('a site folder', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'site-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const withSettings = (edit: (settings: Record<string, any>) => void): string => {
    const settings = JSON.parse(readFileSync(join(defaultSite, 'site.json'), 'utf8')) as Record<string, any>;
    edit(settings);
    writeFileSync(join(dir, 'site.json'), JSON.stringify(settings));
    return dir;
  };

  it('is the repository root site/ unless SITE_DIR names another', () => {
    expect(siteDir(__dirname)).toBe(defaultSite);
    process.env.SITE_DIR = dir;
    try {
      expect(siteDir(__dirname)).toBe(dir);
    } finally {
      delete process.env.SITE_DIR;
    }
  });

  it('reads the default site', () => {
    expect(loadSite(defaultSite).plans.map((p) => p.id)).toContain('standard');
  });

  it('names the file, the field and what is wrong, for every problem at once', () => {
    const broken = withSettings((s) => {
      s.plans[0].amount = -1;
      s.plans[1].id = 'standard';
      s.brand.themeColor = 'navy';
      s.plans[5].interval = undefined;
    });
    const file = join(broken, 'site.json');
    expect(() => loadSite(broken)).toThrow(
      [
        'The site folder has 4 problem(s):',
        `  ${file}: brand.themeColor: must be a colour like #0b1324`,
        `  ${file}: plans[0].amount: must be more than 0`,
        `  ${file}: plans[5].interval: a subscription needs an interval: 'month' or 'year'`,
        `  ${file}: plans[1].id: 'standard' is used by an earlier plan`,
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
    const terms = siteTerms(loadSite(defaultSite));
    expect([terms.guarantee, terms['guarantee:title'], terms['guarantee:short'], terms['guarantee:period']]).toEqual([
      '12-month money-back guarantee',
      '12-Month Money-Back Guarantee',
      '12-month guarantee',
      'a full 12 months',
    ]);
  });

  it('refuses a file that is not JSON, or is missing, saying which', () => {
    writeFileSync(join(dir, 'site.json'), '{ "brand": ');
    expect(() => loadSite(dir)).toThrow(`${join(dir, 'site.json')}: is not valid JSON`);
    expect(() => loadSite(join(dir, "nowhere"))).toThrow(/nowhere\/site\.json: cannot be read/);
  });
});
