// The entry of the prerendered /checkout: its CSS, which the build inlines into the page, and its
// island, fetched once the first frame is painted (as on `/`), so the frame (title, payment card
// with its spinner and mandate, the order summary's outline) paints from the HTML before any code
// is requested. The payment config is asked for at the same moment, so the provider's code loads
// while the island's does; the screen adopts that answer (features/checkout/api/get-payments-config.ts).
import '../styles/base.css';
import '../components/page-heading.css';
import '../features/checkout/checkout.css';
import { getPaymentsConfig } from '../features/checkout/api/get-payments-config';
import { preloadPaymentProviderCode } from '../features/checkout/providers/payment-provider';

requestAnimationFrame(() =>
  setTimeout(() => {
    getPaymentsConfig().then(preloadPaymentProviderCode, () => undefined);
    void import('./checkout-islands');
  }),
);
