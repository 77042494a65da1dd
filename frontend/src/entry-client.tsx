import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './app/app';
import { initAnalytics } from './lib/analytics';
import { initReferralTracking } from './lib/referral';
import './styles/base.css';

// The two start-up tracking routines run before the first render so the first page view is recorded.
initAnalytics();
initReferralTracking();

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

const app = (
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>
);

// index.html carries the prerendered landing page; spa.html (every other route) an empty root.
if (container.firstElementChild) hydrateRoot(container, app);
else createRoot(container).render(app);
