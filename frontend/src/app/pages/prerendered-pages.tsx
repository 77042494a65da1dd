import type { ComponentType } from 'react';
import { BLACKCARD_GRANT } from '@contracts/blackcard-grant';
import { pages } from '@/content/pages';
import type { IslandDefinition } from '@/lib/islands';
import { LandingDocument } from '../landing/landing-document';
import { landingIslands } from '../landing/landing-islands';
import { accountIslands } from './account-islands';
import { blackcardIslands, grantedBlackcardIslands } from './blackcard-islands';
import { blackcardUpsellIslands } from './blackcard-upsell-islands';
import { checkoutIslands } from './checkout-islands';
import { invitationIslands } from './invitation-islands';
import { IslandDocument } from './island-document';
import { successIslands } from './success-islands';
import { upsellIslands } from './upsell-islands';

export interface IslandPage {
  title: string;
  /** Every island of the page: the prerender renders each, the page's entry hydrates each. */
  islands: readonly IslandDefinition[];
  /** What `#root` holds, the islands placed in it. */
  Document: ComponentType;
}

/** Build-time only (src/entry-server.tsx): the pages whose markup the build writes into their documents. */
export const islandPages: Record<string, IslandPage> = {
  landing: { title: pages.landing.title, islands: landingIslands, Document: LandingDocument },
  invitation: {
    title: pages.invitation.title,
    islands: invitationIslands,
    Document: () => <IslandDocument islands={invitationIslands} />,
  },
  blackcard: {
    title: pages.blackcard.title,
    islands: blackcardIslands,
    Document: () => <IslandDocument islands={blackcardIslands} />,
  },
  // The same page as the server sends it to a checked token: the content, and the invitee's data block.
  'blackcard-granted': {
    title: pages.blackcard.title,
    islands: grantedBlackcardIslands,
    Document: () => (
      <>
        <script type="application/json" id={BLACKCARD_GRANT.elementId} dangerouslySetInnerHTML={{ __html: BLACKCARD_GRANT.json }} />
        <IslandDocument islands={grantedBlackcardIslands} />
      </>
    ),
  },
  upsell: { title: pages.upsell.title, islands: upsellIslands, Document: () => <IslandDocument islands={upsellIslands} /> },
  'blackcard-upsell': {
    title: pages.blackcardUpsell.title,
    islands: blackcardUpsellIslands,
    Document: () => <IslandDocument islands={blackcardUpsellIslands} />,
  },
  checkout: { title: pages.checkout.title, islands: checkoutIslands, Document: () => <IslandDocument islands={checkoutIslands} /> },
  success: { title: pages.success.title, islands: successIslands, Document: () => <IslandDocument islands={successIslands} /> },
  account: { title: pages.account.title, islands: accountIslands, Document: () => <IslandDocument islands={accountIslands} /> },
};
