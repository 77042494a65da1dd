import { checkCopy, fill } from './site-copy';

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

  it('says which placeholders a text may use', () => {
    expect(() => checkCopy({ hero: { cta: 'x', watch: 'See {nmae}' }, faq: [{ question: 'q', answer: 'a' }], rating: 5 }, reference, terms, 'f.json')).toThrow(
      'f.json: hero.watch: {nmae} is not a term of this site or of this text (it may use {name})',
    );
  });
});
