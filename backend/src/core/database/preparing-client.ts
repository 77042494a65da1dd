import { createHash } from 'node:crypto';
import { Client, type QueryResult } from 'pg';

/**
 * Distinct statements one connection keeps prepared; past it, new ones are sent unnamed. Postgres
 * holds about 40 KB per prepared statement of this app in the connection's backend (its parse
 * tree and plan), so this bounds a connection's share at about 4 MB.
 */
export const MAX_PREPARED_PER_CONNECTION = 100;
/** Calls of a text on one connection before it is prepared: statements run once or twice (admin screens, migrations) cost no server memory. */
export const PREPARE_AFTER_CALLS = 5;
/** Texts counted towards PREPARE_AFTER_CALLS at most; the counts start afresh past it. */
const MAX_COUNTED = 1000;

/**
 * Postgres refuses a prepared statement whose result columns a migration has changed ("cached
 * plan must not change result type", feature_not_supported; the message may be translated).
 */
const isStalePlan = (err: unknown): boolean => (err as { code?: string }).code === '0A000';

type Callback = (err: Error | null, result?: QueryResult) => void;

/**
 * node-pg's client, preparing each parameterised statement that a connection runs often: from
 * its PREPARE_AFTER_CALLS-th call on, Postgres has it parsed and planned once instead of on every
 * call. The app's statements are fixed texts, sent thousands of times a minute by a launch's
 * buyers, and their parse and plan were most of Postgres's CPU per purchase. A statement with no
 * parameters (BEGIN, COMMIT, migrations' scripts) goes as before. At most
 * MAX_PREPARED_PER_CONNECTION texts are kept, so texts built per call cannot grow the
 * connection's (or the server backend's) memory without bound.
 *
 * After a migration changes the columns a prepared `SELECT *` or `RETURNING *` returns, Postgres
 * refuses that statement once per connection; the client then prepares the text afresh under a
 * new name, so only the statement that met the change fails (and its caller's usual retry or
 * answer applies).
 *
 * Behind a transaction-pooling PgBouncer, PgBouncer must track prepared statements
 * (`max_prepared_statements`, 1.21 and later).
 */
export class PreparingClient extends Client {
  private readonly names = new Map<string, string>();
  /** Calls so far of texts not prepared yet. */
  private readonly calls = new Map<string, number>();
  private generation = 0;

  /** Returns what node-pg's `query` returns for the same arguments (its overloads are what callers see, through `Client`). */
  override query(config: unknown, values?: unknown, callback?: unknown): never {
    const name = typeof config === 'string' && Array.isArray(values) && values.length > 0 ? this.nameFor(config) : undefined;
    if (!name) return (super.query as (...args: unknown[]) => never)(config, values, callback);
    const text = config as string;
    const prepared = { name, text, values };
    if (typeof callback === 'function') {
      return (super.query as (...args: unknown[]) => never)(prepared, (err: Error | null, result?: QueryResult) => {
        if (err && isStalePlan(err)) this.forget(text, name);
        (callback as Callback)(err, result);
      });
    }
    return (super.query as (q: object) => Promise<QueryResult>)(prepared).catch((err: unknown) => {
      if (isStalePlan(err)) this.forget(text, name);
      throw err;
    }) as never;
  }

  private nameFor(text: string): string | undefined {
    const known = this.names.get(text);
    if (known || this.names.size >= MAX_PREPARED_PER_CONNECTION) return known;
    const calls = (this.calls.get(text) ?? 0) + 1;
    if (calls < PREPARE_AFTER_CALLS) {
      if (this.calls.size >= MAX_COUNTED) this.calls.clear();
      this.calls.set(text, calls);
      return undefined;
    }
    this.calls.delete(text);
    const name = `app_${createHash('sha1').update(text).digest('base64url')}_${this.generation}`;
    this.names.set(text, name);
    return name;
  }

  /** The next call prepares the text again under a name the server has not seen. */
  private forget(text: string, name: string): void {
    if (this.names.get(text) !== name) return;
    this.names.delete(text);
    this.generation += 1;
  }
}
