// The entry of /checkout's document, whose frame (title, payment card with its spinner, the order
// summary's outline) is prerendered HTML. Its CSS is inlined into the page by the build, and the
// screen's code is imported here, so it arrives with the SPA's (modulepreload links in the HTML).
// The SPA starts as on any other route (src/entry-client.tsx) and replaces the frame with the live
// screen (lib/page-frame.ts). Its render is scheduled, so the payment config is asked for first:
// the provider's code then loads while the SPA renders and the screen creates its intent.
import '../styles/base.css';
import '../components/page-heading.css';
import '../features/checkout/checkout.css';
import { ROUTES } from '@contracts/routes';
import { providePreloadedScreen } from '../app/routes';
import CheckoutRoute from '../app/routes/checkout.route';
import { fetchPaymentsConfigEarly } from '../features/checkout/api/get-payments-config';
import { preloadPaymentProviderCode } from '../features/checkout/providers/payment-provider';
// Last: it schedules the SPA's first render, which runs after this module's body.
import '../entry-client';

providePreloadedScreen(ROUTES.checkout, CheckoutRoute);
fetchPaymentsConfigEarly().then(preloadPaymentProviderCode, () => undefined);
