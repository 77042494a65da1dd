import { formatPrice } from '@contracts/money';
import { CURRENCY } from '@contracts/plans';
import { CheckoutCta } from '@/components/checkout-cta';
import { Section } from '@/components/section';
import { valueStack } from '@/content/landing-sections';

const totalValue = valueStack.items.reduce((sum, item) => sum + item.value, 0);

export function ValueStackSection() {
  return (
    <Section name="value-stack" heading={valueStack.heading} variant="dark" narrow>
      <ul className="offer-list">
        {valueStack.items.map((item) => (
          <li key={item.title} className="offer-item">
            <div>
              <h3>{item.title}</h3>
              <p>{item.description}</p>
            </div>
            {item.value > 0 ? (
              <p className="offer-item__value">
                <span className="visually-hidden">{valueStack.regularValue}: </span>
                <s>{formatPrice(item.value, CURRENCY)}</s>
              </p>
            ) : (
              <p className="offer-item__value offer-item__value--priceless">{valueStack.priceless}</p>
            )}
          </li>
        ))}
      </ul>
      <div className="offer-total">
        <p>
          {valueStack.totalLabel}: <s data-testid="value-stack-total">{formatPrice(totalValue, CURRENCY)}+</s>
        </p>
        <p className="offer-total__price">{valueStack.yourPrice}</p>
        <CheckoutCta testId="cta-value-stack">{valueStack.cta}</CheckoutCta>
      </div>
    </Section>
  );
}
