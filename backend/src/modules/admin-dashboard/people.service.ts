import { Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import type { ErasePersonResponse, PersonData } from '@contracts/admin';
import { normalizeEmail } from '@contracts/email';
import { AuditService } from '../../common/admin-access/audit.service';
import { scrubJson, scrubText, type ScrubTerms } from '@core/database/person-scrub';

/** NOT NULL name columns (orders, invitations) get this instead of null. */
export const ERASED_NAME = '[erased]';
const erasedEmail = (id: string) => `erased+${id}@invalid`;

type Row = Record<string, unknown>;
type Sql = Pick<EntityManager, 'query'>;

/** Free-form stored documents and messages an address could have reached. */
const SCRUBBED = [
  { table: 'payment_events', key: 'id', column: 'payload', json: true },
  { table: 'outbox', key: 'id', column: 'payload', json: true },
  { table: 'outbox', key: 'id', column: 'last_error', json: false },
  { table: 'side_effects', key: 'key', column: 'detail', json: true },
  { table: 'side_effects', key: 'key', column: 'last_error', json: false },
  { table: 'invitations', key: 'id', column: 'email_status', json: false },
] as const;

/** The person's rows as `kind:id`: what the audit log records instead of their address. */
export function subjects(data: PersonData): string[] {
  return [
    ...(data.lead ? [`lead:${String(data.lead.id)}`] : []),
    ...(data.invitation ? [`invitation:${String(data.invitation.id)}`] : []),
    ...data.orders.map((order) => `order:${String(order.id)}`),
  ];
}

/**
 * A person's data, found by e-mail: everything held (lead, submissions, invitation and its token
 * rows without hashes, orders, ledger entries about them), and its erasure.
 */
@Injectable()
export class PeopleService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
  ) {}

  find(email: string): Promise<PersonData> {
    return this.collect(this.dataSource, normalizeEmail(email));
  }

  /**
   * Personal fields are replaced (e-mail) or removed (name, phone, inviter, attribution) in one
   * transaction, invitation tokens stop working, and orders keep their amounts, plan, status and
   * provider ids under one anonymous address per person (so an erased buyer still counts once).
   * The audit entry names the rows by id, never the address.
   */
  async erase(email: string, adminId: string, clientIp: string): Promise<ErasePersonResponse> {
    const normalized = normalizeEmail(email);
    return this.dataSource.transaction(async (manager) => {
      const data = await this.collect(manager, normalized, true);
      const named = subjects(data);
      const ids = named.map((subject) => subject.split(':')[1]);
      if (ids.length === 0) throw new NotFoundException('Nothing is held about this e-mail address.');
      const erasureId = randomUUID();
      const terms: ScrubTerms = {
        emails: [...new Set([normalized, ...emailsOf(data)])],
        names: [...new Set(namesOf(data))],
        erasedEmail: erasedEmail(erasureId),
        erasedName: ERASED_NAME,
      };
      await this.scrubDocuments(manager, terms, ids);

      const leadIds = data.lead ? [data.lead.id as string] : [];
      const invitationIds = data.invitation ? [data.invitation.id as string] : [];
      const count = async (sql: string, params: unknown[]) => ((await manager.query(sql, params)) as [unknown[], number])[1];
      const erased = {
        leads: await count(
          `UPDATE leads SET email = 'erased+' || id || '@invalid', email_normalized = 'erased+' || id || '@invalid', name = NULL, phone = NULL, attribution = '{}' WHERE id = ANY($1::uuid[])`,
          [leadIds],
        ),
        leadSubmissions: await count(
          `UPDATE lead_submissions SET name = NULL, phone = NULL, attribution = '{}' WHERE lead_id = ANY($1::uuid[])`,
          [leadIds],
        ),
        invitations: await count(
          `UPDATE invitations SET email = 'erased+' || id || '@invalid', email_normalized = 'erased+' || id || '@invalid', name = $2, phone = NULL, invited_by = NULL, updated_at = now() WHERE id = ANY($1::uuid[])`,
          [invitationIds, ERASED_NAME],
        ),
        invitationSubmissions: await count(
          `UPDATE invitation_submissions SET name = $2, phone = NULL, invited_by = NULL WHERE invitation_id = ANY($1::uuid[])`,
          [invitationIds, ERASED_NAME],
        ),
        invitationTokens: await count(
          `UPDATE invitation_tokens SET expires_at = LEAST(expires_at, now()) WHERE invitation_id = ANY($1::uuid[])`,
          [invitationIds],
        ),
        orders: await count(
          `UPDATE orders SET email = $2, email_normalized = $2, name = $3, attribution = '{}', updated_at = now() WHERE email_normalized = $1`,
          [normalized, erasedEmail(erasureId), ERASED_NAME],
        ),
      };
      await this.audit.record(
        { adminId, action: 'person.erase', target: auditTarget([`erasure:${erasureId}`, ...named]), clientIp },
        manager,
      );
      return { erased };
    });
  }

  private async collect(sql: Sql, normalized: string, forUpdate = false): Promise<PersonData> {
    const lock = forUpdate ? ' FOR UPDATE' : '';
    const [lead]: Row[] = await sql.query(`SELECT * FROM leads WHERE email_normalized = $1${lock}`, [normalized]);
    const [invitation]: Row[] = await sql.query(`SELECT * FROM invitations WHERE email_normalized = $1${lock}`, [normalized]);
    const orders: Row[] = await sql.query(
      `SELECT id, plan_id, kind, amount_cents, currency, email, email_normalized, name, source, referral, lead_id, attribution, provider,
              setup_intent_id, payment_intent_id, customer_id, subscription_id, payment_method_id, status, purchase_event_id,
              paid_at, paid_effects, last_refreshed_at, created_at, updated_at
         FROM orders WHERE email_normalized = $1 ORDER BY created_at${lock}`,
      [normalized],
    );
    const leadSubmissions: Row[] = lead
      ? await sql.query(`SELECT * FROM lead_submissions WHERE lead_id = $1 ORDER BY submitted_at, id`, [lead.id])
      : [];
    const invitationSubmissions: Row[] = invitation
      ? await sql.query(`SELECT * FROM invitation_submissions WHERE invitation_id = $1 ORDER BY submitted_at, id`, [invitation.id])
      : [];
    const invitationTokens: PersonData['invitationTokens'] = invitation
      ? await sql.query(
          `SELECT issue, expires_at AS "expiresAt", created_at AS "createdAt" FROM invitation_tokens WHERE invitation_id = $1 ORDER BY issue`,
          [invitation.id],
        )
      : [];
    const ids = [lead?.id, invitation?.id, ...orders.map((order) => order.id)].filter(Boolean);
    // Ledger keys are `<kind>:<subject id>[:<more>]`.
    const sideEffects: Row[] = ids.length
      ? await sql.query(`SELECT * FROM side_effects WHERE split_part(key, ':', 2) = ANY($1::text[]) ORDER BY created_at, key`, [ids])
      : [];
    return {
      email: normalized,
      lead: lead ?? null,
      leadSubmissions,
      invitation: invitation ?? null,
      invitationSubmissions,
      invitationTokens,
      orders,
      sideEffects,
    };
  }

  /**
   * Webhook events, queued payloads, ledger details and messages are not keyed by person, so they
   * are searched: the address is replaced wherever it occurs, names only in rows about their ids.
   */
  private async scrubDocuments(manager: EntityManager, terms: ScrubTerms, ids: string[]): Promise<void> {
    const patterns = [...terms.emails, ...ids].map((text) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    for (const { table, key, column, json } of SCRUBBED) {
      const rows: Array<{ k: string; v: unknown }> = await manager.query(
        `SELECT ${key} AS k, ${column} AS v FROM ${table} WHERE ${column}::text ILIKE ANY($1::text[])${table === 'side_effects' ? ` OR split_part(key, ':', 2) = ANY($2::text[])` : ''} FOR UPDATE`,
        table === 'side_effects' ? [patterns, ids] : [patterns],
      );
      for (const row of rows) {
        const text = json ? JSON.stringify(row.v) : String(row.v);
        const tied = ids.some((id) => text.includes(id) || row.k.includes(id));
        const scrubbed = json ? scrubJson(row.v, terms, tied) : scrubText(String(row.v), terms, tied);
        await manager.query(`UPDATE ${table} SET ${column} = $2 WHERE ${key} = $1`, [row.k, json ? JSON.stringify(scrubbed) : scrubbed]);
      }
    }
  }
}

function emailsOf(data: PersonData): string[] {
  return [data.lead?.email, data.invitation?.email, ...data.orders.map((order) => order.email)].filter(
    (e): e is string => typeof e === 'string',
  );
}

function namesOf(data: PersonData): string[] {
  const names = [
    data.lead?.name,
    data.invitation?.name,
    ...data.leadSubmissions.map((s) => s.name),
    ...data.invitationSubmissions.map((s) => s.name),
    ...data.orders.map((o) => o.name),
  ];
  return names
    .filter((name): name is string => typeof name === 'string' && name.trim() !== '' && name !== ERASED_NAME)
    .map((name) => name.trim());
}

const MAX_TARGET = 1000;

/** The rows touched, e.g. `lead:<uuid> order:<uuid>`, or `person:none`; never the address. */
export function auditTarget(named: string[]): string {
  const target = named.join(' ');
  if (!target) return 'person:none';
  return target.length > MAX_TARGET ? `${target.slice(0, MAX_TARGET - 1)}…` : target;
}
