import { expect } from '@playwright/test';
import { Client } from 'pg';
import type { CreateTestimonialRequest } from '@contracts/admin';
import { SandboxObjectRepository } from '@core/database/repositories/sandbox-object.repository';

/**
 * Direct database access for seeding what the UI reads; the tests never go around the UI to act.
 * A testimonial is seeded as the admin's API creates one, at a place among the featured ones.
 */
export interface TestimonialSeed extends CreateTestimonialRequest {
  displayOrder?: number;
}

function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL must point at the test database the server under test uses');
  return url;
}

/** Runs `work` with a connection to the test database, closed afterwards. */
export async function withDb<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Inserts testimonials and returns their ids, for cleanup. */
export function insertTestimonials(seeds: TestimonialSeed[]): Promise<string[]> {
  return withDb(async (client) => {
    const ids: string[] = [];
    for (const seed of seeds) {
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO testimonials (name, title, content, video_url, image_url, rating, featured, display_order)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
        [
          seed.name,
          seed.title,
          seed.content,
          seed.videoUrl ?? null,
          seed.imageUrl ?? null,
          seed.rating ?? 5,
          seed.featured ?? true,
          seed.displayOrder ?? 0,
        ],
      );
      ids.push(rows[0].id);
    }
    return ids;
  });
}

export function deleteTestimonials(ids: string[]): Promise<void> {
  if (ids.length === 0) return Promise.resolve();
  return withDb(async (client) => {
    await client.query('DELETE FROM testimonials WHERE id = ANY($1::uuid[])', [ids]);
  });
}

/** Un-features every testimonial for the duration of a test and returns the ids to re-feature after. */
export function unfeatureAllTestimonials(): Promise<string[]> {
  return withDb(async (client) => {
    const { rows } = await client.query<{ id: string }>('UPDATE testimonials SET featured = false WHERE featured RETURNING id');
    return rows.map((row) => row.id);
  });
}

export function featureTestimonials(ids: string[]): Promise<void> {
  if (ids.length === 0) return Promise.resolve();
  return withDb(async (client) => {
    await client.query('UPDATE testimonials SET featured = true WHERE id = ANY($1::uuid[])', [ids]);
  });
}

export function findLeadByEmail(email: string): Promise<{ email_normalized: string } | null> {
  return withDb(async (client) => {
    const { rows } = await client.query<{ email_normalized: string }>('SELECT email_normalized FROM leads WHERE email_normalized = $1', [
      email.toLowerCase(),
    ]);
    return rows[0] ?? null;
  });
}

/** The database's clock: a mark for the jobs owed after it (see jobsEndedSince). */
export function databaseNow(): Promise<Date> {
  return withDb(async (client) => (await client.query<{ now: Date }>('SELECT now() AS now')).rows[0].now);
}

/** The sandbox provider's time now, as the admin's clock has moved it: read as the sandbox reads it. */
export function sandboxNow(client: Client): Promise<Date> {
  // The repository takes TypeORM's `query` (rows, typed by the caller); node-pg answers a result.
  return new SandboxObjectRepository().clockNow({
    query: async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T,
  });
}

/**
 * Waits until the server has owed at least one `jobName` job since `mark` and every such job has
 * ended (done, or given up): whatever they were to send has been sent, so what has not arrived
 * will not.
 */
export async function jobsEndedSince(jobName: string, mark: Date): Promise<void> {
  const ended = () =>
    withDb(async (client) => {
      const { rows } = await client.query<{ owed: number; open: number }>(
        `SELECT count(*)::int AS owed, count(*) FILTER (WHERE completed_at IS NULL AND failed_at IS NULL)::int AS open
           FROM outbox WHERE job_name = $1 AND created_at >= $2`,
        [jobName, mark],
      );
      return rows[0].owed > 0 && rows[0].open === 0;
    });
  await expect.poll(ended, { message: `the ${jobName} jobs owed since the mark to end`, timeout: 20_000 }).toBe(true);
}
