import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { ErasePersonResponse, PersonData } from '@contracts/admin';
import { normalizeEmail } from '@contracts/email';
import {
  PERSONAL_DATA_OWNERS,
  type PersonalDataOwner,
  type PersonErasure,
  type PersonFindings,
  type SqlExecutor,
} from '@core/database/personal-data';
import { AuditRepository } from '@core/database/repositories/audit.repository';
import { OrderLifecycle } from '@core/orders/order-lifecycle';

/** NOT NULL name columns (orders, invitations) get this instead of null. */
const ERASED_NAME = '[erased]';
const erasedEmail = (id: string) => `erased+${id}@invalid`;

/** A person's data, and their rows as `kind:id`: what the audit log records instead of their address. */
export interface FoundPerson {
  data: PersonData;
  subjects: string[];
}

/**
 * A person's data, found by e-mail, and its erasure: each repository that stores personal data
 * finds and erases its own rows (PERSONAL_DATA_OWNERS, in RepositoriesModule's order); this
 * service only puts their findings together and runs them in one transaction.
 */
@Injectable()
export class PeopleService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditRepository,
    private readonly lifecycle: OrderLifecycle,
    @Inject(PERSONAL_DATA_OWNERS) private readonly owners: readonly PersonalDataOwner[],
  ) {}

  async find(email: string): Promise<FoundPerson> {
    const normalized = normalizeEmail(email);
    const found = await this.collect(this.dataSource, normalized);
    return { data: personData(normalized, found), subjects: found.subjects };
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
      const found = await this.collect(manager, normalized, true);
      const ids = idsOf(found.subjects);
      if (ids.length === 0) throw new NotFoundException('Nothing is held about this e-mail address.');
      const erasureId = randomUUID();
      const erasure: PersonErasure = {
        emailNormalized: normalized,
        ids,
        emails: [...new Set([normalized, ...found.emails])],
        names: [...new Set(storedNames(found.names))],
        erasedEmail: erasedEmail(erasureId),
        erasedName: ERASED_NAME,
      };
      // What the providers are owed (customers forgotten, plans stopped) is read while the orders still name the person.
      await this.lifecycle.personErasing(manager, normalized);
      const erased: Record<string, number> = {};
      for (const owner of this.owners) Object.assign(erased, await owner.erasePerson(erasure, manager));
      await this.audit.record(
        { adminId, action: 'person.erase', target: auditTarget([`erasure:${erasureId}`, ...found.subjects]), clientIp },
        manager,
      );
      return { erased: erased as ErasePersonResponse['erased'] };
    });
  }

  /** Each owner in turn, so tables keyed by other rows' ids find the person through the ids found before them. */
  private async collect(sql: SqlExecutor, normalized: string, forUpdate = false): Promise<PersonFindings> {
    const found: PersonFindings = { sections: {}, subjects: [], emails: [], names: [] };
    for (const owner of this.owners) {
      const findings = await owner.findPerson({ emailNormalized: normalized, ids: idsOf(found.subjects) }, sql, forUpdate);
      Object.assign(found.sections, findings.sections);
      found.subjects.push(...findings.subjects);
      found.emails.push(...findings.emails);
      found.names.push(...findings.names);
    }
    return found;
  }
}

function personData(normalized: string, found: PersonFindings): PersonData {
  return { email: normalized, ...found.sections } as PersonData;
}

/** `kind:id` → `id`. */
function idsOf(subjects: string[]): string[] {
  return subjects.map((subject) => subject.split(':')[1]);
}

function storedNames(names: string[]): string[] {
  return names.filter((name) => name.trim() !== '' && name !== ERASED_NAME).map((name) => name.trim());
}

const MAX_TARGET = 1000;

/** The rows touched, e.g. `lead:<uuid> order:<uuid>`, or `person:none`; never the address. */
export function auditTarget(named: string[]): string {
  const target = named.join(' ');
  if (!target) return 'person:none';
  return target.length > MAX_TARGET ? `${target.slice(0, MAX_TARGET - 1)}…` : target;
}
