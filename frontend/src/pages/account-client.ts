// The entry of the prerendered /account: its CSS, which the build inlines into the page, and its
// island, fetched and hydrated once the first frame is painted (React's runtime first, in its own
// task: lib/island-loading.ts). The page paints its heading, its lead and the loading line from
// its HTML; the island then signs the visitor in (a link's token) or asks for their account,
// without the router or the query library.
import '../styles/base.css';
import '../components/page-heading.css';
import '../features/account/account.css';
import { loadIslandsAfterFirstFrame } from '../lib/island-loading';

loadIslandsAfterFirstFrame(() => import('./account-islands'));
