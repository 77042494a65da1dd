import { checkCopy, fill, planCardProblems } from './site-copy';
import type { SiteSettings } from './site.schema';

const terms = { program: 'Clear', 'price:standard': '$97' };
const reference = {
  hero: { cta: 'Join {program} for {price:standard}', watch: "Watch {name}'s story" },
  faq: [{ question: 'Q', answer: 'A' }],
  rating: 5,
};

describe('a copy file', () => {
  it('is filled with the site terms and keeps the placeholders its code fills', () => {
    const copy = checkCopy(
      { hero: { cta: 'Start {program} at {price:standard}', watch: 'See {name}' }, faq: [{ question: 'a', answer: 'b' }, { question: 'c', answer: 'd' }], rating: 4 },
      reference,
      terms,
      'copy/landing.json',
    );
    expect(copy).toEqual({ hero: { cta: 'Start Clear at $97', watch: 'See {name}' }, faq: [{ question: 'a', answer: 'b' }, { question: 'c', answer: 'd' }], rating: 4 });
    expect(fill(copy.hero.watch, { name: 'Ana' })).toBe('See Ana');
  });

  it('names every missing, unknown or mistyped field and every unknown placeholder', () => {
    expect(() =>
      checkCopy({ hero: { cta: 'Join {progam}', wacth: 'x' }, faq: [], rating: '5' }, reference, terms, 'copy/landing.json'),
    ).toThrow(
      [
        'The site folder has 5 problem(s):',
        "  copy/landing.json: hero.cta: {progam} is not a term of this site",
        '  copy/landing.json: hero.watch: is missing',
        '  copy/landing.json: hero.wacth: is not a field of this file (check its spelling)',
        '  copy/landing.json: faq: must list at least one item',
        '  copy/landing.json: rating: must be number, not text',
      ].join('\n'),
    );
  });

  it("shows {money:<amount>} in the site's currency, as prices are, in any text", () => {
    const euro = { ...terms, currency: 'EUR' };
    const copy = checkCopy({ hero: { cta: 'Level 4 is {money:25000}', watch: 'x' }, faq: [{ question: '{money:7500}', answer: 'a' }], rating: 5 }, reference, euro, 'f.json');
    expect(copy.hero.cta).toBe('Level 4 is €25,000');
    expect(copy.faq[0].question).toBe('€7,500');
    expect(() => checkCopy({ hero: { cta: '{money:lots}', watch: 'x' }, faq: [{ question: 'q', answer: 'a' }], rating: 5 }, reference, euro, 'f.json')).toThrow(
      'f.json: hero.cta: {money:lots} is not a term of this site',
    );
  });

  it('says which placeholders a text may use', () => {
    expect(() => checkCopy({ hero: { cta: 'x', watch: 'See {nmae}' }, faq: [{ question: 'q', answer: 'a' }], rating: 5 }, reference, terms, 'f.json')).toThrow(
      'f.json: hero.watch: {nmae} is not a term of this site or of this text (it may use {name})',
    );
  });
});

describe('a list of groups in a copy file', () => {
  const cards = [
    { plan: 'a', saving: '', steps: ['one'] },
    { plan: 'b', saving: 'Save {saving}', steps: [] },
  ];

  it("takes any item in the default items' shape: their fields, any placeholder one of them has, a list one leaves empty", () => {
    const copy = checkCopy(
      [
        { plan: 'c', saving: 'Save {saving} now', steps: [] },
        { plan: 'd', saving: '', steps: ['x', 'y'] },
        { plan: 'e', saving: 'Only {saving}', steps: ['z'] },
      ],
      cards,
      {},
      'copy/plan-cards.json',
    );
    expect(copy.map((card) => card.saving)).toEqual(['Save {saving} now', '', 'Only {saving}']);
  });

  it('names the item and field of each problem', () => {
    expect(() => checkCopy([{ plan: 'c', saving: '{savings}', step: [] }], cards, {}, 'copy/plan-cards.json')).toThrow(
      [
        'The site folder has 3 problem(s):',
        '  copy/plan-cards.json: [0].saving: {savings} is not a term of this site or of this text (it may use {saving})',
        '  copy/plan-cards.json: [0].steps: is missing',
        '  copy/plan-cards.json: [0].step: is not a field of this file (check its spelling)',
      ].join('\n'),
    );
  });
});

describe('the plan cards of copy/plan-cards.json', () => {
  const settings = {
    plans: [{ id: 'monthly' }, { id: 'yearly' }, { id: 'lifetime' }],
    offers: { upgrade: ['yearly', 'lifetime'] },
  } as unknown as SiteSettings;

  it('are fine with one card for each upgrade plan, and a card for a plan not offered yet', () => {
    expect(planCardProblems([{ plan: 'lifetime' }, { plan: 'yearly' }, { plan: 'monthly' }], settings)).toEqual([]);
  });

  it('name a card of a plan the catalogue lacks, a second card of a plan, and an upgrade plan without a card', () => {
    expect(planCardProblems([{ plan: 'yearly' }, { plan: 'weekly' }, { plan: 'yearly' }], settings)).toEqual([
      "[1].plan: 'weekly' is not a plan of site.json (plans: monthly, yearly, lifetime)",
      "[2].plan: 'yearly' has a card already ([0]): a plan has one card",
      `(top level): has no card for 'lifetime' of site.json offers.upgrade: add one whose "plan" is "lifetime"`,
    ]);
  });
});
