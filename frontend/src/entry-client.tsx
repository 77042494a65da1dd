import { renderSpa } from './app/spa';
import { initAnalytics } from './lib/analytics';
import { initReferralTracking } from './lib/referral';
import './styles/base.css';

// The two start-up tracking routines run before the first render so the first page view is recorded.
initAnalytics();
initReferralTracking();

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

// spa.html, every route but a first visit to `/` (its own document serves that: src/pages/registry.ts).
renderSpa(container);
