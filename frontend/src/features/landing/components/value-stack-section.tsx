import { CheckoutCta } from '@/components/checkout-cta';
import { valueStack } from '@/content/landing';

const totalValue = valueStack.items.reduce((sum, item) => sum + (typeof item.value === 'number' ? item.value : 0), 0);

export function ValueStackSection() {
  return (
    <section className="section section--dark" aria-labelledby="value-stack-heading" data-testid="section-value-stack">
      <div className="container container--narrow">
        <div className="section__header">
          <h2 id="value-stack-heading">{valueStack.heading}</h2>
        </div>
        <ul className="offer-list">
          {valueStack.items.map((item) => (
            <li key={item.title} className="offer-item">
              <div>
                <h3>{item.title}</h3>
                <p>{item.description}</p>
              </div>
              {typeof item.value === 'number' ? (
                <p className="offer-item__value">
                  <span className="visually-hidden">{valueStack.regularValue}: </span>
                  <s>${item.value}</s>
                </p>
              ) : (
                <p className="offer-item__value offer-item__value--priceless">{item.value}</p>
              )}
            </li>
          ))}
        </ul>
        <div className="offer-total">
          <p>
            {valueStack.totalLabel}: <s data-testid="value-stack-total">${totalValue}+</s>
          </p>
          <p className="offer-total__price">{valueStack.yourPrice}</p>
          <CheckoutCta testId="cta-value-stack">{valueStack.cta}</CheckoutCta>
        </div>
      </div>
    </section>
  );
}
