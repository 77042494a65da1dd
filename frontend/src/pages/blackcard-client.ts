// The entry of the prerendered /blackcard: its CSS, which the build inlines into the page, and its
// islands, fetched and hydrated at once (the content waits on the access check, unlike `/`, whose
// islands wait for the first frame). The query token's check starts first, so the request runs
// while React and the islands load (the access hook adopts the answer).
import '../styles/base.css';
import '../components/page-heading.css';
import '../features/blackcard/blackcard.css';
import { validateTokenEarly } from '../features/blackcard/api/validate-token-early';
import { readServerGrant } from '../features/blackcard/server-grant';
import { loadIslands } from '../lib/island-loading';

// A document the server granted has checked its token already (features/blackcard/server-grant.ts).
if (!readServerGrant()) validateTokenEarly(new URLSearchParams(window.location.search).get('token')?.trim() || null);
void loadIslands(() => import('./blackcard-islands'));
