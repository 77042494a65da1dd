import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PersonalDataOwner, PersonFindings, SqlExecutor, TableColumns } from '../personal-data';
import { nothingFound } from '../personal-data';
import { affectedRows } from './sql-results';

/** A `testimonials` row. Content is stored exactly as typed (HTML included): every page renders it as text. */
export interface TestimonialRow {
  id: string;
  name: string;
  /** The person's role, shown under the name. */
  title: string;
  content: string;
  video_url: string | null;
  image_url: string | null;
  rating: number;
  featured: boolean;
  display_order: number;
  created_at: Date;
}

/** What an admin writes of a testimonial; its place among the featured ones is decided here. */
export type TestimonialFields = Pick<TestimonialRow, 'name' | 'title' | 'content' | 'video_url' | 'image_url' | 'rating' | 'featured'>;

export const TESTIMONIAL_TABLES: readonly TableColumns[] = [
  { table: 'testimonials', personal: ['name', 'title', 'content', 'video_url', 'image_url'], notPersonal: [] },
  // One-time seeding runs (demo content for `npm start`), by name.
  { table: 'seed_runs', personal: [], notPersonal: ['name'] },
];

const COLUMNS = 'id, name, title, content, video_url, image_url, rating, featured, display_order, created_at';

@Injectable()
export class TestimonialRepository implements PersonalDataOwner {
  readonly tables = TESTIMONIAL_TABLES;

  constructor(private readonly dataSource: DataSource) {}

  /** Featured ones in display order. */
  featured(): Promise<TestimonialRow[]> {
    return this.dataSource.query<TestimonialRow[]>(`SELECT ${COLUMNS} FROM testimonials WHERE featured ORDER BY display_order, created_at`);
  }

  /** Everything: featured ones first in display order, then the newest. */
  list(): Promise<TestimonialRow[]> {
    return this.dataSource.query<TestimonialRow[]>(
      `SELECT ${COLUMNS} FROM testimonials ORDER BY featured DESC, CASE WHEN featured THEN display_order END, created_at DESC`,
    );
  }

  /** Serialises changes to the featured order until the caller's transaction ends, so two admins reordering at once cannot interleave. */
  async lockDisplayOrder(sql: SqlExecutor): Promise<void> {
    await sql.query(`SELECT pg_advisory_xact_lock(hashtext('testimonials.display_order'))`);
  }

  /** A newly featured testimonial goes to the end of the landing page's list. */
  async insert(sql: SqlExecutor, t: TestimonialFields): Promise<TestimonialRow> {
    const rows: TestimonialRow[] = await sql.query(
      `INSERT INTO testimonials (name, title, content, video_url, image_url, rating, featured, display_order)
         VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $7 THEN (SELECT coalesce(max(display_order) + 1, 0) FROM testimonials WHERE featured) ELSE 0 END)
         RETURNING ${COLUMNS}`,
      [t.name, t.title, t.content, t.video_url, t.image_url, t.rating, t.featured],
    );
    return rows[0];
  }

  /** Sets the given fields (undefined ones are left as they are). */
  async update(sql: SqlExecutor, id: string, fields: Partial<TestimonialFields>): Promise<void> {
    const sets = Object.entries(fields).filter(([, value]) => value !== undefined);
    if (sets.length === 0) return;
    await sql.query(`UPDATE testimonials SET ${sets.map(([column], i) => `${column} = $${i + 2}`).join(', ')} WHERE id = $1`, [
      id,
      ...sets.map(([, value]) => value),
    ]);
  }

  /** Resolves with the number of rows deleted. */
  async delete(sql: SqlExecutor, id: string): Promise<number> {
    return affectedRows(await sql.query(`DELETE FROM testimonials WHERE id = $1`, [id]));
  }

  async lockRow(sql: SqlExecutor, id: string): Promise<TestimonialRow | null> {
    const rows: TestimonialRow[] = await sql.query(`SELECT ${COLUMNS} FROM testimonials WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] ?? null;
  }

  /** The featured ones other than `id`, in display order. */
  async featuredIdsExcept(sql: SqlExecutor, id: string): Promise<string[]> {
    const others: Array<Pick<TestimonialRow, 'id'>> = await sql.query(
      `SELECT id FROM testimonials WHERE featured AND id <> $1 ORDER BY display_order, created_at`,
      [id],
    );
    return others.map((row) => row.id);
  }

  /** Numbers the given testimonials 0, 1, 2… in this order. */
  async renumber(sql: SqlExecutor, ids: readonly string[]): Promise<void> {
    await sql.query(
      `UPDATE testimonials t SET display_order = o.ord - 1 FROM unnest($1::uuid[]) WITH ORDINALITY AS o(id, ord) WHERE t.id = o.id`,
      [ids],
    );
  }

  /**
   * Inserts `testimonials` as featured, in this order, unless seeding `seedName` ran before
   * (remembered in seed_runs, so deleting a seeded row keeps it deleted). Resolves with whether it ran now.
   */
  seedOnce(seedName: string, testimonials: ReadonlyArray<Omit<TestimonialFields, 'featured'>>): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const claimed: unknown[] = await manager.query(`INSERT INTO seed_runs (name) VALUES ($1) ON CONFLICT DO NOTHING RETURNING name`, [
        seedName,
      ]);
      if (claimed.length === 0) return false;
      for (const [order, t] of testimonials.entries()) {
        await manager.query(
          `INSERT INTO testimonials (name, title, content, image_url, video_url, rating, featured, display_order)
           VALUES ($1, $2, $3, $4, $5, $6, true, $7)`,
          [t.name, t.title, t.content, t.image_url, t.video_url, t.rating, order],
        );
      }
      return true;
    });
  }

  /** Published with the member's consent and managed by admins; not kept under anyone's e-mail address. */
  findPerson(): Promise<PersonFindings> {
    return Promise.resolve(nothingFound());
  }

  /** An admin deletes a testimonial in the testimonial manager; an address erasure does not reach it. */
  erasePerson(): Promise<Record<string, number>> {
    return Promise.resolve({});
  }
}
