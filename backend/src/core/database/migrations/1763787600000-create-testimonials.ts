import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateTestimonials1763787600000 implements MigrationInterface {
  name = 'CreateTestimonials1763787600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE testimonials (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        title text NOT NULL,
        content text NOT NULL,
        video_url text,
        image_url text,
        rating int NOT NULL DEFAULT 5,
        featured boolean NOT NULL DEFAULT false,
        display_order int NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ix_testimonials_featured_order ON testimonials (featured, display_order)`);
    // Remembers one-time seeding (demo content for `npm start`), so a deleted demo row stays deleted.
    await q.query(`CREATE TABLE seed_runs (name text PRIMARY KEY, ran_at timestamptz NOT NULL DEFAULT now())`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE seed_runs`);
    await q.query(`DROP TABLE testimonials`);
  }
}
