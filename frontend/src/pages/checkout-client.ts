// The entry of /checkout's document, whose frame (title, payment card with its spinner, the order
// summary's outline) is prerendered HTML. Its CSS is inlined into the page by the build; the
// screen's code is preloaded with the SPA's (static imports: modulepreload links in the HTML). The
// SPA starts as on any other route and replaces the frame with the live screen (lib/page-frame.ts);
// its render is scheduled, so the payment config is asked for before it, and the provider's code
// loads while the screen's does and is there when the screen has created its intent.
import '../styles/base.css';
import '../components/page-heading.css';
import '../features/checkout/checkout.css';
import '../app/routes/checkout.route';
import '../entry-client';
import { fetchPaymentsConfigEarly } from '../features/checkout/api/get-payments-config';
import { preloadPaymentProviderCode } from '../features/checkout/providers/payment-provider';

fetchPaymentsConfigEarly().then(preloadPaymentProviderCode, () => undefined);
