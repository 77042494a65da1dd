import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SPEC_SITE } from './site/spec-site.fixture';

type Catalogue = typeof import('./plans') & typeof import('./products');

/** The plans and products modules as they read `settings` as site.json (a folder of its own, SITE_DIR restored after). */
function catalogueOf(settings: object): Catalogue {
  const dir = mkdtempSync(join(tmpdir(), 'site-plans-'));
  const chosen = process.env.SITE_DIR;
  try {
    writeFileSync(join(dir, 'site.json'), JSON.stringify(settings));
    process.env.SITE_DIR = dir;
    let catalogue!: Catalogue;
    jest.isolateModules(
      () => (catalogue = { ...jest.requireActual<typeof import('./plans')>('./plans'), ...jest.requireActual<typeof import('./products')>('./products') }),
    );
    return catalogue;
  } finally {
    if (chosen === undefined) delete process.env.SITE_DIR;
    else process.env.SITE_DIR = chosen;
    rmSync(dir, { recursive: true, force: true });
  }
}

const {
  CURRENCY,
  DEFAULT_PLAN_ID,
  findPlan,
  isPlanId,
  OFFERS,
  periodMonths,
  PLAN_IDS,
  planOf,
  plansOf,
  PLANS,
  PRODUCT_IDS,
  productName,
  productOf,
  resolvePlan,
  isAddOnOnly,
  bumpOffered,
} = catalogueOf(SPEC_SITE);

describe('plan catalogue', () => {
  it('holds the spec amounts, names and payment kinds', () => {
    expect(PLANS.map((p) => [p.id, p.amount, p.name, p.kind])).toEqual([
      ['standard', 97, 'Standard Access', 'subscription'],
      ['6-month', 250, '6-Month Plan', 'one-time'],
      ['2-month', 550, '2-Month Plan', 'one-time'],
      ['full-payment', 997, 'Full Payment', 'one-time'],
      ['payment-plan', 37, '3-Payment Plan', 'one-time'],
      ['premium', 297, 'Elite Access', 'subscription'],
      ['blackcard-vip', 997, 'Black Card APEX', 'one-time'],
      ['workbook', 27, 'CLEAR Method Workbook', 'one-time'],
    ]);
  });

  it.each([undefined, null, '', 'gold', 'STANDARD', 'constructor'])('falls back to standard for %p', (id) => {
    expect(resolvePlan(id as string).id).toBe('standard');
  });

  it('resolves a known id', () => {
    expect(resolvePlan('blackcard-vip').displayText).toBe('$997 one-time');
  });
});

describe('plan catalogue, field by field', () => {
  it('lists the eight plan ids in catalogue order, charges US dollars and defaults to standard', () => {
    expect(PLAN_IDS).toEqual(['standard', '6-month', '2-month', 'full-payment', 'payment-plan', 'premium', 'blackcard-vip', 'workbook']);
    expect(CURRENCY).toBe('USD');
    expect(DEFAULT_PLAN_ID).toBe('standard');
  });

  it('holds every field of every plan as the spec words it', () => {
    expect(Object.fromEntries(PLANS.map((p) => [p.id, p]))).toEqual({
      standard: { id: 'standard', amount: 97, name: 'Standard Access', displayText: '$97/month', kind: 'subscription', interval: 'month' },
      '6-month': {
        id: '6-month',
        amount: 250,
        name: '6-Month Plan',
        displayText: '$250/month for 6 months',
        kind: 'one-time',
        instalments: 6,
      },
      '2-month': {
        id: '2-month',
        amount: 550,
        name: '2-Month Plan',
        displayText: '$550/month for 2 months',
        kind: 'one-time',
        instalments: 2,
      },
      'full-payment': { id: 'full-payment', amount: 997, name: 'Full Payment', displayText: '$997 one-time', kind: 'one-time' },
      'payment-plan': { id: 'payment-plan', amount: 37, name: '3-Payment Plan', displayText: '3 x $37', kind: 'one-time', instalments: 3 },
      premium: { id: 'premium', amount: 297, name: 'Elite Access', displayText: '$297/month', kind: 'subscription', interval: 'month' },
      'blackcard-vip': { id: 'blackcard-vip', amount: 997, name: 'Black Card APEX', displayText: '$997 one-time', kind: 'one-time' },
      workbook: { id: 'workbook', amount: 27, name: 'CLEAR Method Workbook', displayText: '$27 one-time', kind: 'one-time' },
    });
  });

  it.each(['standard', '6-month', '2-month', 'full-payment', 'payment-plan', 'premium', 'blackcard-vip'])(
    'knows %s as a plan id and resolves it to itself',
    (id) => {
      expect(isPlanId(id)).toBe(true);
      expect(resolvePlan(id)).toBe(planOf(id));
    },
  );

  it.each([undefined, null, '', ' standard', 'Standard', 'gold', 'toString', 'constructor', 97, {}, ['standard']])(
    'does not take %p for a plan id',
    (value) => {
      expect(isPlanId(value)).toBe(false);
    },
  );

  it('falls back to the standard plan object itself', () => {
    expect(resolvePlan('gold')).toBe(OFFERS.default);
    expect(resolvePlan(undefined)).toBe(OFFERS.default);
  });
});

describe('plans by role and product, from site.json', () => {
  it('gives the default site its offers: standard by default, the 30-Day Experience, Level Two', () => {
    expect(OFFERS.default).toBe(planOf('standard'));
    expect(OFFERS.upgrade.map((p) => p.id)).toEqual(['6-month', '2-month', 'full-payment']);
    expect(OFFERS.upgradeCta).toBe(planOf('2-month'));
    expect(OFFERS.levelTwo).toBe(planOf('blackcard-vip'));
    expect(PLANS.filter(OFFERS.firstInstalmentButton).map((p) => p.id)).toEqual(['payment-plan']);
    expect(OFFERS.bump).toBe(planOf('workbook'));
  });

  it('offers the add-on with every plan but itself', () => {
    expect(PLANS.filter((p) => bumpOffered(p) === OFFERS.bump).map((p) => p.id)).toEqual(PLAN_IDS.filter((id) => id !== 'workbook'));
    expect(bumpOffered(planOf('workbook'))).toBeUndefined();
  });

  it('knows the add-on as the one plan sold only with another', () => {
    expect(PLANS.filter(isAddOnOnly).map((p) => p.id)).toEqual(['workbook']);
  });

  it('keeps the default products clear, elite and blackcard, and finds each plan of one', () => {
    expect(PRODUCT_IDS).toEqual(['clear', 'elite', 'blackcard', 'workbook']);
    expect(plansOf('clear')).toEqual(['standard', '6-month', '2-month', 'full-payment', 'payment-plan']);
    expect([productOf('premium'), productOf('blackcard-vip'), productOf('gold')]).toEqual(['elite', 'blackcard', undefined]);
  });

  it('names each product for the admin: the programme, else its first plan', () => {
    expect(['clear', 'elite', 'blackcard', 'gold'].map(productName)).toEqual(['Clear programme', 'Elite Access', 'Black Card APEX', 'gold']);
  });

  it('looks an id up without trusting it, and refuses to name a plan the site lacks', () => {
    expect(findPlan('premium')).toBe(planOf('premium'));
    expect([findPlan('gold'), findPlan(97), findPlan('constructor')]).toEqual([undefined, undefined, undefined]);
    expect(() => planOf('gold')).toThrow("site.json: plans: no plan 'gold'");
  });

  it('bills a monthly period for every default plan, and for an id it does not know', () => {
    expect(PLAN_IDS.map(periodMonths)).toEqual(PLAN_IDS.map(() => 1));
    expect(periodMonths('gold')).toBe(1);
  });
});

describe('plans of another site', () => {
  /** The plans module as it reads the spec's site edited by `edit`. */
  const plansOfSite = (edit: (settings: Record<string, any>) => void): Catalogue => {
    const settings = structuredClone(SPEC_SITE) as Record<string, any>;
    edit(settings);
    return catalogueOf(settings);
  };

  it('takes its plan ids, products and roles from site.json', () => {
    const other = plansOfSite((s) => {
      s.plans = [
        { id: 'monthly', name: 'Monthly', amount: 29, kind: 'subscription', interval: 'month', product: 'club' },
        { id: 'annual', name: 'Annual', amount: 290, kind: 'subscription', interval: 'year', product: 'club' },
      ];
      s.offers = { default: 'annual', upgrade: ['monthly'] };
    });
    expect(other.PLAN_IDS).toEqual(['monthly', 'annual']);
    expect(other.resolvePlan('standard').id).toBe('annual');
    expect(other.isPlanId('standard')).toBe(false);
    expect(other.PRODUCT_IDS).toEqual(['club']);
    expect(other.plansOf('club')).toEqual(['monthly', 'annual']);
    expect([other.periodMonths('monthly'), other.periodMonths('annual')]).toEqual([1, 12]);
    expect(other.planOf('annual').displayText).toBe('$290/year');
    expect([other.OFFERS.upgradeCta?.id, other.OFFERS.levelTwo]).toEqual(['monthly', undefined]);
  });
});
