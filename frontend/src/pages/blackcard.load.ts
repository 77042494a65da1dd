// How /blackcard's entry asks for its islands. A document the server granted
// (features/blackcard/server-grant.ts) paints its content from the HTML, so its islands wait for
// the first frame, as on the other pages: requested earlier, React's runtime competes with that
// first paint on a slow phone. Otherwise the content waits on the access check, so the query
// token's check starts first and React and the islands load at once while it runs (the access hook
// adopts the answer).
import { validateTokenEarly } from '../features/blackcard/api/validate-token-early';
import { readServerGrant } from '../features/blackcard/server-grant';
import { loadIslands, loadIslandsAfterFirstFrame } from '../lib/island-loading';

const loadPage = () => import('virtual:page/blackcard-islands');
if (readServerGrant()) loadIslandsAfterFirstFrame(loadPage);
else {
  validateTokenEarly(new URLSearchParams(window.location.search).get('token')?.trim() || null);
  void loadIslands(loadPage);
}
