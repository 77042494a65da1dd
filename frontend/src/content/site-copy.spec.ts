import { OFFERS, planOf } from '@contracts/plans';
import { account } from './account';
import { checkout } from './checkout';
import { hero, testimonialsSection } from './landing';
import { guarantee } from './landing-sections';
import { pages } from './pages';
import { planCards } from './plan-cards';

// The copy modules read the site folder's copy files as the build gives them to the bundle: site
// terms filled in when read, the code's own placeholders filled when shown.
describe('the copy of the buyer pages', () => {
  it('reads prices, names and the guarantee from the site folder', () => {
    expect(hero.cta).toBe(`Join the Clear Movement — $${OFFERS.default.amount}`);
    expect(guarantee.badge).toBe('12-Month Money-Back Guarantee');
    expect(pages.upsell.title).toBe('The 30-Day Experience | Clear Method by Brightpath Coaching');
    expect(pages.landing.title).toBe('Clear Method by Brightpath Coaching');
  });

  it('fills what the code knows only when it shows the text', () => {
    expect(testimonialsSection.watchLabel('Ana')).toBe("Watch Ana's story (opens in a new tab)");
    expect(checkout.payLabel(planOf('payment-plan'), 'USD')).toBe('Payment 1 of 3 - $37');
    expect(checkout.payLabel(OFFERS.default, 'USD', 4850)).toBe('Pay $48.50');
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
    expect(planCards.map(({ plan, breakdown, saving, highlighted }) => [plan.id, breakdown, saving, highlighted])).toEqual([
      ['6-month', '6 × $250 = $1,500', null, false],
      ['2-month', '2 × $550 = $1,100', 'Save $400', true],
      ['full-payment', 'One payment, instant access', 'Save $503!', false],
    ]);
  });
});
