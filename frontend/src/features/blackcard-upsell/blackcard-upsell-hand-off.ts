import { OFFERS } from '@contracts/plans';
import { ROUTES } from '@contracts/routes';
import { INVITE_SOURCE } from '@/content/blackcard';
import { checkoutHref, present, withQuery } from '@/lib/funnel-links';

/** What /blackcard-upsell reads from its query string (spec section 2); each defaults to empty. */
export interface LevelTwoVisitor {
  email: string;
  name: string;
  referral: string;
  token: string;
}

export function readLevelTwoVisitor(params: URLSearchParams): LevelTwoVisitor {
  const text = (key: string) => params.get(key)?.trim() ?? '';
  return { email: text('email'), name: text('name'), referral: text('referral'), token: text('token') };
}

/** Every accept button: Level Two at checkout as an invitee; referral and token only when present. */
export function levelTwoCheckoutHref({ email, name, referral, token }: LevelTwoVisitor): string {
  return checkoutHref({
    plan: (OFFERS.levelTwo ?? OFFERS.default).id,
    email,
    name,
    source: INVITE_SOURCE,
    referral: present(referral),
    token: present(token),
  });
}

/** The decline: the final success view for Level One, with the referral if present and never the token. */
export function levelOneFinalHref({ email, name, referral }: LevelTwoVisitor): string {
  return withQuery(ROUTES.success, {
    plan: OFFERS.default.id,
    email,
    name,
    source: INVITE_SOURCE,
    final: 'true',
    referral: present(referral),
  });
}
