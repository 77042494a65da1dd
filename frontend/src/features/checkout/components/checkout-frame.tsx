import { checkout as copy } from '@/content/checkout';

/**
 * The frame of /checkout that its document paints before any script runs (app/pages/frames.tsx):
 * the screen's layout, title, payment card with its spinner and the order summary's outline,
 * without anything that depends on the visitor's plan or details (the live screen fills those in
 * when it replaces the frame). Plain markup: nothing here is hydrated or carries a test id.
 */
export function CheckoutFrame() {
  return (
    <main className="checkout">
      <div className="container checkout__container">
        <a href="/" className="checkout__back">
          <span aria-hidden="true">←</span> {copy.backToHome}
        </a>
        <h1 tabIndex={-1} className="page-heading">
          {copy.heading}
        </h1>
        <div className="checkout__grid">
          <div className="card checkout__payment">
            <h2>{copy.paymentDetails}</h2>
            <div className="checkout__element" aria-busy="true">
              <div className="checkout__loading" role="status">
                <span className="spinner" aria-hidden="true" />
                <span>{copy.initializing}</span>
              </div>
            </div>
            <span className="button button--cta button--block checkout__pay-placeholder" aria-hidden="true">
              {'\u00a0'}
            </span>
            <ul className="checkout__notes">
              {copy.notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          </div>
          <aside className="card checkout__summary" aria-label={copy.summary.heading}>
            <h2>{copy.summary.heading}</h2>
            <dl className="checkout__lines">
              {[copy.summary.plan, copy.summary.price, copy.summary.total].map((label) => (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd className="checkout__pending-value" />
                </div>
              ))}
            </dl>
            <p className="checkout__secure">{copy.secureCheckout}</p>
          </aside>
        </div>
      </div>
    </main>
  );
}
