// The entry of the prerendered `/`. The server HTML is complete and styled by the CSS below,
// which the build inlines into the page; everything that makes the islands interactive loads
// only after the first frame, so a slow phone paints the page before it downloads, parses and
// runs that code.
import './styles/base.css';
import './features/landing/landing.css';
// The islands' own styles, here so they arrive with the page rather than with the island code.
import './features/lead-capture/components/lead-capture.css';
import './features/testimonials/components/testimonials.css';

requestAnimationFrame(() => setTimeout(() => void import('./landing-islands')));
