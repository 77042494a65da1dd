import type { EntityManager } from 'typeorm';

/** Anything that runs SQL: the DataSource, or a transaction's EntityManager. */
export type SqlExecutor = Pick<EntityManager, 'query'>;

/**
 * Every text, varchar and json(b) column of one table, each declared personal (it can hold an
 * e-mail address, a name, a phone number, an address or a free-form document that may contain
 * one) or not personal. The schema test fails on any such column declared neither way, so a
 * migration that adds one cannot forget to say what it holds.
 */
export interface TableColumns {
  table: string;
  personal: readonly string[];
  notPersonal: readonly string[];
}

/** The person being looked up: their e-mail address as stored in `*_normalized` columns. */
export interface PersonKey {
  emailNormalized: string;
  /**
   * Ids (without their kind) of the rows that owners earlier in the list found: tables keyed by
   * another row's id (ledger entries, queued jobs) find the person through them, so their owners
   * come last in RepositoriesModule's list.
   */
  ids: string[];
}

/** What an owner found about a person: its sections of the export, and what erasure needs to know. */
export interface PersonFindings {
  /** Sections of the admin export (`PersonData` in @contracts/admin), keyed by their field name there. */
  sections: Record<string, unknown>;
  /** Ids of this person's rows as `kind:id` (e.g. `lead:<uuid>`), for the audit entry. */
  subjects: string[];
  /** Other stored forms of the person's address and their stored names, found in these rows. */
  emails: string[];
  names: string[];
}

/** What an erasure replaces, and the ids of every row about the person across all owners. */
export interface PersonErasure extends PersonKey {
  /** Ids (without their kind) of every row about the person, from every owner's findings. */
  ids: string[];
  emails: string[];
  names: string[];
  erasedEmail: string;
  erasedName: string;
}

/**
 * A repository that stores personal data. It declares its tables' columns, finds what it holds
 * about a person and erases it, inside the caller's transaction. The people service only
 * composes the owners: a new table with personal data is one more owner, not an edit there.
 */
export interface PersonalDataOwner {
  readonly tables: readonly TableColumns[];
  findPerson(person: PersonKey, sql: SqlExecutor, forUpdate: boolean): Promise<PersonFindings>;
  /** Returns the number of rows changed per table (or per export section). */
  erasePerson(erasure: PersonErasure, sql: SqlExecutor): Promise<Record<string, number>>;
}

/** Injection token of the list of every PersonalDataOwner (provided by RepositoriesModule). */
export const PERSONAL_DATA_OWNERS = Symbol('PersonalDataOwners');

/** The findings of an owner whose rows are not found by a person's address or ids. */
export function nothingFound(): PersonFindings {
  return { sections: {}, subjects: [], emails: [], names: [] };
}
