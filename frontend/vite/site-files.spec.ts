import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { documentHead, siteModuleJson } from './site-files';

const defaultSite = join(__dirname, '../../site');

describe("the build's site files", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'site-'));
    cpSync(defaultSite, dir, { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const edit = (file: string, change: (json: Record<string, any>) => void) => {
    const json = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, any>;
    change(json);
    writeFileSync(join(dir, file), JSON.stringify(json));
  };

  it("gives the bundle the chosen site's copy with its terms filled in", () => {
    edit('site.json', (site) => {
      site.brand.programName = 'Bloom';
      site.currency = 'EUR';
      site.plans.find((plan: { id: string }) => plan.id === site.offers.default).amount = 89;
    });
    edit('copy/landing.json', (copy) => (copy.hero.headline = 'Grow with {program}'));
    const copy = JSON.parse(siteModuleJson(dir, defaultSite, 'copy/landing.json'));
    expect(copy.hero.headline).toBe('Grow with Bloom');
    expect(copy.hero.cta).toBe('Join the Bloom Movement — €89');
    expect(copy.testimonialsSection.watchLabel).toBe("Watch {name}'s story (opens in a new tab)");
  });

  it('fails on a copy file with a missing field or an unknown placeholder, naming the file and the field', () => {
    edit('copy/checkout.json', (copy) => {
      delete copy.summary.heading;
      copy.oneClick.pay = 'Pay {amount} with card {last4} of {holder}';
    });
    const file = join(dir, 'copy/checkout.json');
    const load = () => siteModuleJson(dir, defaultSite, 'copy/checkout.json');
    expect(load).toThrow(`${file}: summary.heading: is missing`);
    expect(load).toThrow(`${file}: oneClick.pay: {holder} is not a term of this site or of this text (it may use {amount}, {last4})`);
  });

  it('fails on a copy file the site folder lacks, naming it', () => {
    rmSync(join(dir, 'copy/upsell.json'));
    expect(() => siteModuleJson(dir, defaultSite, 'copy/upsell.json')).toThrow(`${join(dir, 'copy/upsell.json')}: cannot be read`);
  });

  it('fails on a poster that is not in the media folder, naming the field and the file', () => {
    edit('media.json', (media) => (media.salesLetter.poster.src = '/media/letter.jpg'));
    expect(() => siteModuleJson(dir, defaultSite, 'media.json')).toThrow(
      `${join(dir, 'media.json')}: salesLetter.poster.src: ${join(dir, 'media', 'letter.jpg')} does not exist`,
    );
    writeFileSync(join(dir, 'media', 'letter.jpg'), 'jpeg');
    expect(JSON.parse(siteModuleJson(dir, defaultSite, 'media.json')).salesLetter.poster.src).toBe('/media/letter.jpg');
  });

  it("takes every document's title and description from the site's head copy", () => {
    edit('site.json', (site) => Object.assign(site.brand, { name: 'Bloom Studio', programName: 'Bloom', methodName: 'BLOOM Method' }));
    edit('theme.json', (theme) => (theme.themeColor = '#123456'));
    expect(documentHead(dir, defaultSite)).toEqual({
      title: 'Bloom Method by Bloom Studio',
      description:
        'Bloom is a monthly coaching membership built on the five-step BLOOM Method: get clear in your marriage, finances, health and purpose.',
      themeColor: '#123456',
    });
  });
});
