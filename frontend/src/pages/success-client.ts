// The entry of the prerendered /success: its CSS, which the build inlines into the page, and its
// island, fetched and hydrated once the first frame is painted (React's runtime first, in its own
// task: lib/island-loading.ts). The page paints its loading view ('Verifying Payment...') from its
// HTML; the island then verifies the payment and shows the view the result calls for, without the
// router or the query library.
import '../styles/base.css';
import '../components/page-heading.css';
import '../features/success/success.css';
import { loadIslandsAfterFirstFrame } from '../lib/island-loading';

loadIslandsAfterFirstFrame(() => import('./success-islands'));
