import type { VerificationResult } from '@contracts/payments';
import { PLANS, resolvePlan } from '@contracts/plans';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { resolveReferral } from '@/lib/referral';
import { useVerifyPurchase, type VerificationKind } from '../api/verify-purchase';
import { playConfetti } from '../confetti';
import { trackPurchaseOnce } from '../purchase-tracking';
import { blackcardUpsellHref, retryCheckoutHref, type SuccessHandOff } from '../success-hand-off';
import { AllSetView, IncompleteView, LoadingView, VerificationFailedView } from './status-views';
import { UpgradeOfferView } from './upgrade-offer-view';
import { WelcomeView } from './welcome-view';
import '../success.css';

const PAID_STATUSES = new Set(['succeeded', 'active']);
const INVITE_SOURCE = 'blackcard';

/** /success (spec sections 2 and 4): verify, then show the view the result calls for. */
export function SuccessPage({ handOff }: { handOff: SuccessHandOff }) {
  const { verification } = handOff;
  if (!verification) return handOff.final ? <AllSetView vip={handOff.source === INVITE_SOURCE} /> : <VerificationFailedView />;
  return <VerifiedResult handOff={handOff} kind={verification.kind} id={verification.id} />;
}

function VerifiedResult({ handOff, kind, id }: { handOff: SuccessHandOff; kind: VerificationKind; id: string }) {
  const query = useVerifyPurchase(kind, id);

  if (query.isPending) return <LoadingView />;
  if (query.isError || !query.data) return <VerificationFailedView />;
  const result = query.data;
  const planId = result.plan || handOff.plan || PLANS.standard.id;
  const email = result.customer_email ?? handOff.email;
  const name = result.customer_name ?? handOff.name;
  if (!PAID_STATUSES.has(result.status))
    return <IncompleteView status={result.status} retryHref={retryCheckoutHref(planId, email, name)} />;
  return <PaidResult handOff={handOff} id={id} result={result} email={email} name={name} />;
}

interface PaidResultProps {
  handOff: SuccessHandOff;
  id: string;
  result: VerificationResult;
  email: string | null;
  name: string | null;
}

function PaidResult({ handOff, id, result, email, name }: PaidResultProps) {
  const navigate = useNavigate();
  const plan = resolvePlan(result.plan || handOff.plan);
  const offerStep = plan.id === PLANS.standard.id && !handOff.final;
  const toLevelTwo = offerStep && handOff.source === INVITE_SOURCE;
  const [offerOpen, setOfferOpen] = useState(offerStep && !toLevelTwo);

  useEffect(() => {
    trackPurchaseOnce(id, plan, result.amount || plan.amount, result.purchase_event_id);
  }, [id, plan, result.amount, result.purchase_event_id]);

  useEffect(() => {
    if (!toLevelTwo) return;
    const referral = result.referral ?? handOff.referral ?? resolveReferral();
    void navigate(blackcardUpsellHref(email, name, referral, handOff.token), { replace: true });
  }, [email, handOff.referral, handOff.token, name, navigate, result.referral, toLevelTwo]);

  useEffect(() => (toLevelTwo ? undefined : playConfetti()), [toLevelTwo]);

  if (toLevelTwo) return <LoadingView />;
  return offerOpen ? <UpgradeOfferView email={email} name={name} onDecline={() => setOfferOpen(false)} /> : <WelcomeView />;
}
