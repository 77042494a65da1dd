import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { JOBS, SandboxWebhookEvent } from '@contracts/jobs';
import { owe } from '../../../queue/owe';
import type { SandboxObjectRow } from './sandbox-events';

const COLUMNS = `s.id, s.object, s.order_id, o.plan_id, s.client_secret, s.status, s.amount_cents, s.currency, s.customer_id,
  s.payment_method_id, s.card, s.last_error, s.created_at`;

export type SandboxObjectKind = SandboxObjectRow['object'];

export interface NewSandboxObject {
  id: string;
  object: SandboxObjectKind;
  orderId: string;
  idempotencyKey: string;
  clientSecret: string | null;
  status: string;
  amountCents: number;
  currency: string;
  customerId: string;
  paymentMethodId?: string | null;
  card?: SandboxObjectRow['card'];
}

/**
 * The sandbox's Postgres records (Stripe's stand-in). Every state change is written together with
 * the Stripe-shaped events it causes, owed as `sandbox-webhook` jobs: the worker delivers them to
 * our own webhook endpoint, signed, exactly like Stripe would.
 */
@Injectable()
export class SandboxStore {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** Creates the object unless one exists under its idempotency key; resolves with whichever is stored. */
  async insertOnce(
    manager: EntityManager,
    row: NewSandboxObject,
    events: (stored: SandboxObjectRow) => SandboxWebhookEvent[],
  ): Promise<SandboxObjectRow> {
    const inserted: unknown[] = await manager.query(
      `INSERT INTO sandbox_objects (id, object, order_id, idempotency_key, client_secret, status, amount_cents, currency, customer_id, payment_method_id, card)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
      [
        row.id,
        row.object,
        row.orderId,
        row.idempotencyKey,
        row.clientSecret,
        row.status,
        row.amountCents,
        row.currency,
        row.customerId,
        row.paymentMethodId ?? null,
        row.card ? JSON.stringify(row.card) : null,
      ],
    );
    const [stored] = await this.select(manager, 's.idempotency_key = $1', [row.idempotencyKey]);
    if (inserted.length === 1) await this.emit(manager, events(stored));
    return stored;
  }

  async find(manager: EntityManager, object: SandboxObjectKind, id: string, lock = false): Promise<SandboxObjectRow | null> {
    const [row] = await this.select(manager, 's.object = $1 AND s.id = $2', [object, id], lock);
    return row ?? null;
  }

  async findBySecret(
    manager: EntityManager,
    object: SandboxObjectKind,
    clientSecret: string,
    lock = false,
  ): Promise<SandboxObjectRow | null> {
    const [row] = await this.select(manager, 's.object = $1 AND s.client_secret = $2', [object, clientSecret], lock);
    return row ?? null;
  }

  /** Changes an object and records the events that change causes, in the caller's transaction. */
  async update(
    manager: EntityManager,
    row: SandboxObjectRow,
    change: Pick<SandboxObjectRow, 'status' | 'payment_method_id' | 'card' | 'last_error'>,
    events: (updated: SandboxObjectRow) => SandboxWebhookEvent[],
  ): Promise<SandboxObjectRow> {
    await manager.query(
      `UPDATE sandbox_objects SET status = $2, payment_method_id = $3, card = $4, last_error = $5, updated_at = now() WHERE id = $1`,
      [
        row.id,
        change.status,
        change.payment_method_id,
        change.card ? JSON.stringify(change.card) : null,
        change.last_error ? JSON.stringify(change.last_error) : null,
      ],
    );
    const updated = { ...row, ...change };
    await this.emit(manager, events(updated));
    return updated;
  }

  private async emit(manager: EntityManager, events: SandboxWebhookEvent[]): Promise<void> {
    await owe(
      manager,
      events.map((event) => ({ name: JOBS.sandboxWebhook, data: { event } })),
    );
  }

  private select(manager: EntityManager, where: string, params: unknown[], lock = false): Promise<SandboxObjectRow[]> {
    return manager.query(
      `SELECT ${COLUMNS} FROM sandbox_objects s JOIN orders o ON o.id = s.order_id WHERE ${where}${lock ? ' FOR UPDATE OF s' : ''}`,
      params,
    );
  }
}
