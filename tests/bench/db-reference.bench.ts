import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import type { AppConfig } from '../../backend/src/core/config/app-config';
import { LeadRepository } from '../../backend/src/core/database/repositories/lead.repository';
import { LeadBatchWriter } from '../../backend/src/modules/leads/lead-batch-writer';
import { percentile } from './report';

export interface WriteFigures {
  perSecond: number;
  p50: number | null;
  p99: number | null;
  errors: number;
}

/**
 * What Postgres on this machine gives the lead write without HTTP, Nest or TypeORM in the way:
 * the reference `POST /api/leads` is measured against in the same run. `clients` loops each
 * write one lead and wait for its commit, like the API's connections, for `seconds`.
 *
 * Both modes drive the API's own LeadBatchWriter over node-pg, so the statements are exactly
 * the ones the API issues (the lead upsert with its submission, then owe()'s outbox insert, in
 * one transaction) and cannot drift from them. Batched, the loops share one writer, as requests
 * share the API's; one transaction per lead, each loop has its own writer, and since a loop
 * waits for its lead before writing the next, every one of those batches holds a single lead.
 */
export async function referenceLeadWrites(
  databaseUrl: string,
  opts: { clients: number; seconds: number; batched: boolean; prefix: string },
): Promise<WriteFigures> {
  const pool = new Pool({ connectionString: databaseUrl, max: opts.clients });
  try {
    // Connections are opened before the clock starts, as the API's pool is warm under load.
    const warm = await Promise.all(Array.from({ length: opts.clients }, () => pool.connect()));
    warm.forEach((client) => client.release());
    const shared = leadWriter(pool);
    let sequence = 0;
    const latencies: number[] = [];
    let errors = 0;
    const started = performance.now();
    const deadline = started + opts.seconds * 1000;
    await Promise.all(
      Array.from({ length: opts.clients }, async () => {
        const writer = opts.batched ? shared : leadWriter(pool);
        while (performance.now() < deadline) {
          const sent = performance.now();
          try {
            await writer.write({
              email: `${opts.prefix}${process.pid}-${sequence++}@example.com`,
              name: 'Bench',
              phone: null,
              referral: 'partner7',
              attribution: {},
            });
            latencies.push(performance.now() - sent);
          } catch {
            errors++;
          }
        }
      }),
    );
    const elapsedSeconds = (performance.now() - started) / 1000;
    return { perSecond: latencies.length / elapsedSeconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors };
  } finally {
    await pool.end();
  }
}

function leadWriter(pool: Pool): LeadBatchWriter {
  const dataSource = nodePgDataSource(pool);
  // The default reminder delay: each new lead owes its reminder too, as in production.
  return new LeadBatchWriter(dataSource, new LeadRepository(dataSource), { ABANDONED_CHECKOUT_DELAY_S: 3600 } as AppConfig);
}

/**
 * The two things LeadBatchWriter asks of TypeORM — a transaction, and query() answering with the
 * rows — over a node-pg pool.
 */
function nodePgDataSource(pool: Pool): DataSource {
  const transaction = async <T>(work: (manager: EntityManager) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const manager = { query: async (sql: string, params?: unknown[]) => (await client.query(sql, params)).rows };
      const result = await work(manager as unknown as EntityManager);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  };
  return { transaction } as unknown as DataSource;
}
