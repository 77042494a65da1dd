// The entry of the prerendered /blackcard-upsell: its CSS, which the build inlines into the page, and its
// islands, fetched and hydrated once the first frame is painted (React's runtime first, in its own
// task: lib/island-loading.ts): the page paints from its HTML before any of that code is
// requested, so a slow phone does not wait for it to see the page. Until then its links are plain links and a form's button stays disabled.
import '../styles/base.css';
import '../components/page-heading.css';
import '../features/blackcard-upsell/blackcard-upsell.css';
import { loadIslandsAfterFirstFrame } from '../lib/island-loading';

loadIslandsAfterFirstFrame(() => import('./blackcard-upsell-islands'));
