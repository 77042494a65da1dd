import { ROUTES } from '../routes';
import type { SiteSettings } from './site.schema';

/** The pages of the invitation funnel: the gate, and the invitee's page its access link opens. */
const INVITATION_PAGES: readonly string[] = [ROUTES.invitation, ROUTES.blackcard];

/**
 * The page paths a site leaves out (site.json `pages`): the build writes no document for them, the
 * SPA has no route to them and the server answers them with 404 (backend/src/common/spa.ts).
 */
export function pagesLeftOut(settings: Pick<SiteSettings, 'pages'>): readonly string[] {
  return settings.pages.invitation ? [] : INVITATION_PAGES;
}
