import { PageHeading } from '@/components/page-heading';
import { checkout as copy } from '@/content/checkout';

/** Shown when the payment provider's script (or its configuration) cannot load (spec section 8). */
export function PaymentSetupError() {
  return (
    <main className="screen">
      <div className="screen__card" role="alert" data-testid="payment-setup-error">
        <PageHeading>{copy.setupErrorScreen.heading}</PageHeading>
        <p>{copy.setupErrorScreen.body}</p>
        <button type="button" className="button button--cta" onClick={() => window.location.reload()}>
          {copy.setupErrorScreen.reload}
        </button>
      </div>
    </main>
  );
}
