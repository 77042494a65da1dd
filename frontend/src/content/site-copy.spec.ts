import { formatMoney, formatPrice } from '@contracts/money';
import { CURRENCY, OFFERS, planOf } from '@contracts/plans';
import { site } from '@contracts/site/site';
import { account } from './account';
import { checkout } from './checkout';
import { hero, testimonialsSection } from './landing';
import { guarantee } from './landing-sections';
import { pages } from './pages';
import { planCards } from './plan-cards';

// The copy modules read the site folder's copy files as the build gives them to the bundle: site
// terms filled in when read, the code's own placeholders filled when shown. Names and prices come
// from the site folder too, so a seller's rename or price change keeps these exact checks green.
const { programName: program, name: brand } = site.brand;
const price = (amount: number) => formatPrice(amount, CURRENCY);
describe('the copy of the buyer pages', () => {
  it('reads prices, names and the guarantee from the site folder', () => {
    expect(hero.cta).toBe(`Join the ${program} Movement — ${price(OFFERS.default.amount)}`);
    expect(guarantee.badge).toBe(site.guarantee.title);
    expect(pages.upsell.title).toBe(`The 30-Day Experience | ${program} Method by ${brand}`);
    expect(pages.landing.title).toBe(`${program} Method by ${brand}`);
  });

  it('fills what the code knows only when it shows the text', () => {
    expect(testimonialsSection.watchLabel('Ana')).toBe("Watch Ana's story (opens in a new tab)");
    const instalments = planOf('payment-plan');
    expect(checkout.payLabel(instalments, CURRENCY)).toBe(`Payment 1 of ${instalments.instalments} - ${price(instalments.amount)}`);
    expect(checkout.payLabel(OFFERS.default, CURRENCY, 4850)).toBe(`Pay ${formatMoney(4850, CURRENCY)}`);
    expect(checkout.coupon.months(1)).toBe('Discount applies to the first month');
    expect(checkout.coupon.months(3)).toBe('Discount applies to the first 3 months');
    expect(account.cancelFlow.ends(null)).toBe(
      'If you cancel, your membership ends at the end of the current period and you are not charged again.',
    );
    expect(account.cancelFlow.ends('May 1')).toBe(
      'If you cancel, your membership stays active until May 1, then it ends and you are not charged again.',
    );
    expect(account.cancelFlow.pause.months(1)).toBe('Pause for 1 month');
    expect(account.cancelFlow.pause.months(3)).toBe('Pause for 3 months');
  });

  it("shows each plan card's instalments, total and saving", () => {
    const [six, two, full] = ['6-month', '2-month', 'full-payment'].map(planOf);
    const total = (plan: typeof six) => plan.amount * (plan.instalments ?? 1);
    // One card for each upgrade plan, in the offer's order; the default site's three first.
    expect(planCards.map(({ plan }) => plan.id)).toEqual(OFFERS.upgrade.map((plan) => plan.id));
    expect(planCards.slice(0, 3).map(({ plan, breakdown, saving, highlighted }) => [plan.id, breakdown, saving, highlighted])).toEqual([
      ['6-month', `${six.instalments} × ${price(six.amount)} = ${price(total(six))}`, null, false],
      ['2-month', `${two.instalments} × ${price(two.amount)} = ${price(total(two))}`, `Save ${price(total(six) - total(two))}`, true],
      ['full-payment', 'One payment, instant access', `Save ${price(total(six) - total(full))}!`, false],
    ]);
  });
});
