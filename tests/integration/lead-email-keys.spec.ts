import { DataSource, QueryRunner } from 'typeorm';
import { normalizeEmail } from '@contracts/email';
import { dataSourceOptions } from '@core/database/data-source';
import { RenormalizeLeadEmails1764547200000 } from '@core/database/migrations/1764547200000-renormalize-lead-emails';

/** Rows as the old writer stored them: keyed by SQL lower() under the C locale (ASCII only). */
const OLD_ROWS = [
  { email: 'Äbc@example.com', key: 'Äbc@example.com', name: null, phone: '+1 555 0100', count: 2, at: '2026-01-01T00:00:00Z' },
  { email: 'äbc@example.com', key: 'äbc@example.com', name: 'Ä', phone: null, count: 1, at: '2026-01-02T00:00:00Z' },
  { email: 'Ölaf@Example.com', key: 'Ölaf@example.com', name: 'Ö', phone: null, count: 1, at: '2026-01-03T00:00:00Z' },
  { email: 'Plain@Example.com', key: 'plain@example.com', name: 'P', phone: null, count: 1, at: '2026-01-04T00:00:00Z' },
];

describe('migration RenormalizeLeadEmails', () => {
  let db: DataSource;
  let runner: QueryRunner;
  beforeAll(async () => {
    db = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!, 2)).initialize();
  });
  afterAll(() => db?.destroy());
  beforeEach(async () => {
    runner = db.createQueryRunner();
    await runner.startTransaction();
    await runner.query('TRUNCATE leads, lead_submissions CASCADE');
    for (const row of OLD_ROWS) {
      const [{ id }] = await runner.query(
        `INSERT INTO leads (email, email_normalized, name, phone, submission_count, first_submitted_at, last_submitted_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id`,
        [row.email, row.key, row.name, row.phone, row.count, row.at],
      );
      for (let i = 0; i < row.count; i++) await runner.query(`INSERT INTO lead_submissions (lead_id) VALUES ($1)`, [id]);
    }
  });
  afterEach(async () => {
    await runner.rollbackTransaction();
    await runner.release();
  });

  it('rekeys every lead by normalizeEmail and merges the rows that are one address', async () => {
    await new RenormalizeLeadEmails1764547200000().up(runner);
    const leads = await runner.query(
      `SELECT l.email, l.email_normalized, l.name, l.phone, l.submission_count, l.first_submitted_at,
              (SELECT count(*)::int FROM lead_submissions s WHERE s.lead_id = l.id) AS submissions
         FROM leads l ORDER BY l.email_normalized COLLATE "C"`,
    );
    expect(leads).toEqual([
      {
        email: 'Plain@Example.com',
        email_normalized: 'plain@example.com',
        name: 'P',
        phone: null,
        submission_count: 1,
        first_submitted_at: new Date('2026-01-04T00:00:00Z'),
        submissions: 1,
      },
      {
        email: 'äbc@example.com',
        email_normalized: 'äbc@example.com',
        name: 'Ä',
        phone: '+1 555 0100',
        submission_count: 3,
        first_submitted_at: new Date('2026-01-01T00:00:00Z'),
        submissions: 3,
      },
      {
        email: 'Ölaf@Example.com',
        email_normalized: 'ölaf@example.com',
        name: 'Ö',
        phone: null,
        submission_count: 1,
        first_submitted_at: new Date('2026-01-03T00:00:00Z'),
        submissions: 1,
      },
    ]);
    for (const lead of leads) expect(lead.email_normalized).toBe(normalizeEmail(lead.email));
  });

  it('changes nothing when run again', async () => {
    const migration = new RenormalizeLeadEmails1764547200000();
    await migration.up(runner);
    const once = await runner.query('SELECT * FROM leads ORDER BY id');
    await migration.up(runner);
    expect(await runner.query('SELECT * FROM leads ORDER BY id')).toEqual(once);
  });
});
