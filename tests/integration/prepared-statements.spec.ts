import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../backend/src/core/database/data-source';
import { MAX_PREPARED_PER_CONNECTION, PREPARE_AFTER_CALLS, PreparingClient } from '../../backend/src/core/database/preparing-client';

/**
 * The app's connections prepare each parameterised statement they run often, once
 * (core/database/preparing-client.ts), seen from the connection itself through pg_prepared_statements.
 */
const url = () => process.env.DATABASE_URL!;
const prepared = async (client: Client | DataSource): Promise<string[]> => {
  const sql = 'SELECT statement FROM pg_prepared_statements ORDER BY prepare_time';
  const rows: Array<{ statement: string }> = client instanceof DataSource ? await client.query(sql) : (await client.query(sql)).rows;
  return rows.map((r) => r.statement);
};
/** Runs `text` with `value` PREPARE_AFTER_CALLS times: often enough to be prepared. Resolves with the last answer's rows. */
async function runOften(client: Client, text: string, value: unknown): Promise<unknown[]> {
  let rows: unknown[] = [];
  for (let i = 0; i < PREPARE_AFTER_CALLS; i++) rows = (await client.query(text, [value])).rows;
  return rows;
}

describe('prepared statements', () => {
  // Typed as node-pg's client: pools and TypeORM see it so.
  let client: Client;
  let other: Client;
  const table = `prepared_${randomBytes(4).toString('hex')}`;

  beforeEach(async () => {
    client = new PreparingClient({ connectionString: url() });
    other = new Client({ connectionString: url() });
    await Promise.all([client.connect(), other.connect()]);
  });
  afterEach(async () => {
    await other.query(`DROP TABLE IF EXISTS ${table}`);
    await Promise.all([client.end(), other.end()]);
  });

  it(`prepares a statement with parameters at its ${PREPARE_AFTER_CALLS}th call and reuses it; one without goes unprepared`, async () => {
    const text = 'SELECT $1::int + 1 AS n';
    for (let n = 1; n < PREPARE_AFTER_CALLS; n++) expect((await client.query(text, [n])).rows).toEqual([{ n: n + 1 }]);
    // Run a few times only: not prepared, so it holds no memory on the server.
    expect(await prepared(client)).toEqual([]);
    for (let n = 0; n < 3; n++) expect((await client.query(text, [n])).rows).toEqual([{ n: n + 1 }]);
    for (let n = 0; n < PREPARE_AFTER_CALLS; n++) await client.query('SELECT 41 + 1 AS n');
    expect(await prepared(client)).toEqual([text]);
  });

  it('answers callbacks as node-pg does, prepared the same way', async () => {
    const text = 'SELECT $1::text AS said';
    for (let i = 0; i < PREPARE_AFTER_CALLS; i++) {
      const rows = await new Promise((resolve, reject) =>
        client.query(text, ['hello'], (err: Error | null, res: { rows: unknown[] }) => (err ? reject(err) : resolve(res.rows))),
      );
      expect(rows).toEqual([{ said: 'hello' }]);
    }
    expect(await prepared(client)).toEqual([text]);
  });

  it(`keeps at most ${MAX_PREPARED_PER_CONNECTION} texts per connection and still runs the rest`, async () => {
    const texts = Array.from({ length: MAX_PREPARED_PER_CONNECTION + 20 }, (_, i) => `SELECT $1::int + ${i} AS n`);
    for (const [i, text] of texts.entries()) expect(await runOften(client, text, 1)).toEqual([{ n: 1 + i }]);
    // The texts beyond the cap run unnamed, again and again.
    expect(await runOften(client, texts.at(-1)!, 2)).toEqual([{ n: 2 + texts.length - 1 }]);
    const kept = await prepared(client);
    expect(kept).toHaveLength(MAX_PREPARED_PER_CONNECTION);
    expect(kept).toEqual(texts.slice(0, MAX_PREPARED_PER_CONNECTION));
  });

  it('prepares a statement afresh after a migration changes the columns it returns, failing only the call that met the change', async () => {
    await other.query(`CREATE TABLE ${table} (id int PRIMARY KEY)`);
    await other.query(`INSERT INTO ${table} VALUES (1)`);
    const select = `SELECT * FROM ${table} WHERE id = $1`;
    expect(await runOften(client, select, 1)).toEqual([{ id: 1 }]);
    expect(await prepared(client)).toEqual([select]);

    await other.query(`ALTER TABLE ${table} ADD COLUMN label text NOT NULL DEFAULT 'new'`);
    await expect(client.query(select, [1])).rejects.toMatchObject({ code: '0A000' });
    // Unprepared again until it has run often enough, then prepared under a new name.
    expect(await runOften(client, select, 1)).toEqual([{ id: 1, label: 'new' }]);
    expect((await client.query(select, [1])).rows).toEqual([{ id: 1, label: 'new' }]);
    // The stale one and its successor: the successor is used from then on.
    expect(await prepared(client)).toEqual([select, select]);
  });

  it('is what the app’s data sources connect with', async () => {
    const db = await new DataSource(dataSourceOptions(url(), 1)).initialize();
    try {
      for (let n = 0; n < PREPARE_AFTER_CALLS; n++) await db.query('SELECT $1::int AS n', [n]);
      expect(await prepared(db)).toEqual(['SELECT $1::int AS n']);
    } finally {
      await db.destroy();
    }
  });
});
