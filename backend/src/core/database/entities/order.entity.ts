import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { PaymentProviderName } from '@contracts/payments';
import type { OrderStatus } from '../../payments/order-state';

/** One checkout attempt; its status moves only along `order-state.ts`. Amounts in cents. */
@Entity('orders')
export class Order {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('text', { name: 'plan_id' })
  planId: string;

  @Column('text')
  kind: 'subscription' | 'one-time';

  @Column('int', { name: 'amount_cents' })
  amountCents: number;

  @Column('text')
  currency: string;

  @Column('text')
  email: string;

  @Column('text', { name: 'email_normalized' })
  emailNormalized: string;

  @Column('text')
  name: string;

  @Column('text')
  source: string;

  @Column('text', { nullable: true })
  referral: string | null;

  /** SHA-256 of the invite token: enough to match it later, useless if the table leaks. */
  @Column('text', { name: 'invitation_token_hash', nullable: true })
  invitationTokenHash: string | null;

  @Column('uuid', { name: 'lead_id', nullable: true })
  leadId: string | null;

  /** The lead's stored attribution (tid, ga_client_id, fbp, fbc…) for the sale and server-side Purchase. */
  @Column('jsonb', { default: {} })
  attribution: Record<string, string>;

  @Column('text')
  provider: PaymentProviderName;

  @Column('text', { name: 'setup_intent_id', nullable: true })
  setupIntentId: string | null;

  @Column('text', { name: 'payment_intent_id', nullable: true })
  paymentIntentId: string | null;

  @Column('text', { name: 'customer_id', nullable: true })
  customerId: string | null;

  @Column('text', { name: 'subscription_id', nullable: true })
  subscriptionId: string | null;

  @Column('text', { name: 'payment_method_id', nullable: true })
  paymentMethodId: string | null;

  @Column('text', { default: 'created' })
  status: OrderStatus;

  /** Shared by the browser's Purchase event and the server-side one, so ad platforms de-duplicate. */
  @Column('uuid', { name: 'purchase_event_id' })
  purchaseEventId: string;

  /** Set once, when the order first reaches succeeded or active: the paid side effects are owed then. */
  @Column('timestamptz', { name: 'paid_at', nullable: true })
  paidAt: Date | null;

  /** What became of each paid side effect, by side-effect kind: 'sent', 'skipped: not configured', 'failed: …'. */
  @Column('jsonb', { name: 'paid_effects', default: {} })
  paidEffects: Record<string, string>;

  @Column('timestamptz', { name: 'last_refreshed_at', nullable: true })
  lastRefreshedAt: Date | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
