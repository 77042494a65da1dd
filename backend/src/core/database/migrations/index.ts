import { CreateLeadsAndOutbox1763784000000 } from './1763784000000-create-leads-and-outbox';
import { CreateTestimonials1763787600000 } from './1763787600000-create-testimonials';
import { SideEffectClaimsAndRelayIndexes1764460800000 } from './1764460800000-side-effect-claims-and-relay-indexes';
import { RenormalizeLeadEmails1764547200000 } from './1764547200000-renormalize-lead-emails';
import { CreateOrdersAndPaymentEvents1764633600000 } from './1764633600000-create-orders-and-payment-events';
import { OrderPaidEffects1764720000000 } from './1764720000000-order-paid-effects';
import { CreateInvitations1764806400000 } from './1764806400000-create-invitations';
import { CreateAdminAccounts1764896400000 } from './1764896400000-create-admin-accounts';
import { CreateFunnelEvents1764982800000 } from './1764982800000-create-funnel-events';
import { RenameAffiliateSignupJob1765065600000 } from './1765065600000-rename-affiliate-signup-job';
import { SandboxRefunds1765152000000 } from './1765152000000-sandbox-refunds';
import { ReconcilerIndexes1765238400000 } from './1765238400000-reconciler-indexes';
import { Retention1765324800000 } from './1765324800000-retention';
import { OrderBuyerBinding1765411200000 } from './1765411200000-order-buyer-binding';
import { OrderLivemode1765497600000 } from './1765497600000-order-livemode';
import { CreatePayments1765584000000 } from './1765584000000-create-payments';
import { SandboxClock1765670400000 } from './1765670400000-sandbox-clock';
import { InstalmentsAndDunning1765756800000 } from './1765756800000-instalments-and-dunning';
import { AccountAccess1765843200000 } from './1765843200000-account-access';
import { RefundsAndDisputes1766016000000 } from './1766016000000-refunds-and-disputes';
import { Memberships1766188800000 } from './1766188800000-memberships';
import { AbandonedCheckoutReminders1766275200000 } from './1766275200000-abandoned-checkout-reminders';
import { Coupons1766361600000 } from './1766361600000-coupons';
import { OneClick1766448000000 } from './1766448000000-one-click';
import { JobTotalsAsStamped1766534400000 } from './1766534400000-job-totals-as-stamped';
import { InvitationEmailOwedBy1766620800000 } from './1766620800000-invitation-email-owed-by';
import { InstalmentStops1766707200000 } from './1766707200000-instalment-stops';
import { MembershipClaimsAndRefundAdmins1766793600000 } from './1766793600000-membership-claims-and-refund-admins';
import { PastDueGrace1766880000000 } from './1766880000000-past-due-grace';
import { PaymentsCarryProviderIds1766966400000 } from './1766966400000-payments-carry-provider-ids';
import { SandboxDisputes1767139200000 } from './1767139200000-sandbox-disputes';
import { CouponHolds1767312000000 } from './1767312000000-coupon-holds';
import { MembershipProductsFromSite1767657600000 } from './1767657600000-membership-products-from-site';
import { OrderBump1767744000000 } from './1767744000000-order-bump';
import { CancellationFeedback1767830400000 } from './1767830400000-cancellation-feedback';
import { PausedAccess1767916800000 } from './1767916800000-paused-access';

/** In order of their timestamps; listed explicitly (no globs) so a build never silently misses one. */
export const MIGRATIONS = [
  CreateLeadsAndOutbox1763784000000,
  CreateTestimonials1763787600000,
  SideEffectClaimsAndRelayIndexes1764460800000,
  RenormalizeLeadEmails1764547200000,
  CreateOrdersAndPaymentEvents1764633600000,
  OrderPaidEffects1764720000000,
  CreateInvitations1764806400000,
  CreateAdminAccounts1764896400000,
  CreateFunnelEvents1764982800000,
  RenameAffiliateSignupJob1765065600000,
  SandboxRefunds1765152000000,
  ReconcilerIndexes1765238400000,
  Retention1765324800000,
  OrderBuyerBinding1765411200000,
  OrderLivemode1765497600000,
  CreatePayments1765584000000,
  SandboxClock1765670400000,
  InstalmentsAndDunning1765756800000,
  AccountAccess1765843200000,
  RefundsAndDisputes1766016000000,
  Memberships1766188800000,
  AbandonedCheckoutReminders1766275200000,
  Coupons1766361600000,
  OneClick1766448000000,
  JobTotalsAsStamped1766534400000,
  InvitationEmailOwedBy1766620800000,
  InstalmentStops1766707200000,
  MembershipClaimsAndRefundAdmins1766793600000,
  PastDueGrace1766880000000,
  PaymentsCarryProviderIds1766966400000,
  SandboxDisputes1767139200000,
  CouponHolds1767312000000,
  MembershipProductsFromSite1767657600000,
  OrderBump1767744000000,
  CancellationFeedback1767830400000,
  PausedAccess1767916800000,
];
