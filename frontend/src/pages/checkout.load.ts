// How /checkout's entry asks for its island: once the first frame is painted (as on `/`), so the
// frame (title, payment card with its spinner and mandate, the order summary's outline) paints
// from the HTML before any code is requested. The payment config is asked for at the same moment,
// so the provider's code loads while the island's does; the screen adopts that answer
// (features/checkout/api/get-payments-config.ts).
import { getPaymentsConfig } from '../features/checkout/api/get-payments-config';
import { preloadPaymentProviderCode } from '../features/checkout/providers/payment-provider';

requestAnimationFrame(() =>
  setTimeout(() => {
    getPaymentsConfig().then(preloadPaymentProviderCode, () => undefined);
    void import('virtual:page/checkout-islands');
  }),
);
