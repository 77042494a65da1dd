import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The offline sandbox's record of a payment intent, setup intent, subscription or refund (Stripe's stand-in). */
@Entity('sandbox_objects')
export class SandboxObject {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  object: 'payment_intent' | 'setup_intent' | 'subscription' | 'refund';

  @Column('uuid', { name: 'order_id' })
  orderId: string;

  @Column('text', { name: 'idempotency_key', unique: true })
  idempotencyKey: string;

  @Column('text', { name: 'client_secret', nullable: true, unique: true })
  clientSecret: string | null;

  @Column('text')
  status: string;

  @Column('int', { name: 'amount_cents', nullable: true })
  amountCents: number | null;

  @Column('text', { nullable: true })
  currency: string | null;

  @Column('text', { name: 'customer_id' })
  customerId: string;

  @Column('text', { name: 'payment_method_id', nullable: true })
  paymentMethodId: string | null;

  /** The test card confirmed last: its last four digits and which Stripe test outcome it stands for. */
  @Column('jsonb', { nullable: true })
  card: { last4: string; outcome: string } | null;

  @Column('jsonb', { name: 'last_error', nullable: true })
  lastError: Record<string, string> | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
