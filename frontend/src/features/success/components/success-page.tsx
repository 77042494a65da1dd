import type { VerificationResult } from '@contracts/payments';
import { resolvePlan, OFFERS } from '@contracts/plans';
import { startTransition, useContext, useEffect, useState } from 'react';
import { defineIsland } from '@/lib/islands';
import { PageNavigation } from '@/lib/page-navigation';
import { pageQuery } from '@/lib/personal-query';
import { resolveReferral } from '@/lib/referral';
import { useVerifyPurchase } from '../api/verify-purchase';
import { playConfetti } from '../confetti';
import { trackPurchaseOnce } from '../purchase-tracking';
import { blackcardUpsellHref, readSuccessHandOff, retryCheckoutHref, type SuccessHandOff } from '../success-hand-off';
import { AllSetView, IncompleteView, LoadingView, VerificationFailedView } from './status-views';
import { UpgradeOfferView } from './upgrade-offer-view';
import { WelcomeView } from './welcome-view';
import '../success.css';

const PAID_STATUSES = new Set(['succeeded', 'active']);
const INVITE_SOURCE = 'blackcard';

/**
 * /success (spec sections 2 and 4): verify, then show the view the result calls for. `handOff` is
 * null while the page's query is not known yet (the prerendered page before React owns it): the
 * loading view, which stays the same element until a result replaces it.
 */
export function SuccessPage({ handOff }: { handOff: SuccessHandOff | null }) {
  const verification = useVerifyPurchase(handOff?.verification ?? null);
  if (!handOff) return <LoadingView />;
  if (!handOff.verification) return handOff.final ? <AllSetView vip={handOff.source === INVITE_SOURCE} /> : <VerificationFailedView />;
  if (verification.status === 'pending') return <LoadingView />;
  if (verification.status === 'error') return <VerificationFailedView />;
  const { result } = verification;
  const planId = result.plan || handOff.plan || OFFERS.default.id;
  const email = result.customer_email ?? handOff.email;
  const name = result.customer_name ?? handOff.name;
  if (!PAID_STATUSES.has(result.status))
    return <IncompleteView status={result.status} retryHref={retryCheckoutHref(planId, email, name)} />;
  return <PaidResult handOff={handOff} id={handOff.verification.id} result={result} email={email} name={name} />;
}

interface PaidResultProps {
  handOff: SuccessHandOff;
  id: string;
  result: VerificationResult;
  email: string | null;
  name: string | null;
}

function PaidResult({ handOff, id, result, email, name }: PaidResultProps) {
  const goTo = useContext(PageNavigation);
  const plan = resolvePlan(result.plan || handOff.plan);
  const offerStep = plan.id === OFFERS.default.id && !handOff.final;
  const toLevelTwo = offerStep && handOff.source === INVITE_SOURCE;
  const [offerOpen, setOfferOpen] = useState(offerStep && !toLevelTwo);

  useEffect(() => {
    trackPurchaseOnce(id, plan, result.amount || plan.amount, result.purchase_event_id);
  }, [id, plan, result.amount, result.purchase_event_id]);

  useEffect(() => {
    if (!toLevelTwo) return;
    const referral = result.referral ?? handOff.referral ?? resolveReferral();
    goTo(blackcardUpsellHref(email, name, referral, handOff.token), { replace: true });
  }, [email, handOff.referral, handOff.token, name, goTo, result.referral, toLevelTwo]);

  useEffect(() => (toLevelTwo ? undefined : playConfetti()), [toLevelTwo]);

  if (toLevelTwo) return <LoadingView />;
  return offerOpen ? <UpgradeOfferView email={email} name={name} onDecline={() => setOfferOpen(false)} /> : <WelcomeView />;
}

/**
 * The prerendered /success is the loading view: its HTML cannot know the visitor's payment. Once
 * React owns the page it reads the query (with what personal-query-guard.ts moved out of the
 * address bar) and verifies; the result renders as a transition.
 */
function PrerenderedSuccessPage() {
  const [handOff, setHandOff] = useState<SuccessHandOff | null>(null);
  useEffect(() => startTransition(() => setHandOff(readSuccessHandOff(pageQuery(window.location.search)))), []);
  return <SuccessPage handOff={handOff} />;
}

export const successIsland = defineIsland('success', () => <PrerenderedSuccessPage />);
