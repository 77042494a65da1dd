import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@core/database/data-source';
import { ALL_TABLE_COLUMNS } from '@core/database/repositories/repositories.module';

/** Column types that can hold an e-mail address, a name or a document with one in it. */
const TEXT_TYPES = ['text', 'character varying', 'json', 'jsonb', 'citext', 'character'];

/**
 * Every text and JSON column of the migrated schema is declared personal or not personal by the
 * repository that owns its table, so a migration that adds one cannot leave the admin's export
 * and erasure unaware of it.
 */
describe('personal data declared per column', () => {
  let db: DataSource;
  let schema: Array<{ table_name: string; column_name: string; text: boolean }>;

  beforeAll(async () => {
    db = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!, 1)).initialize();
    // citext is a user-defined type: information_schema names it in udt_name.
    schema = await db.query(
      `SELECT table_name, column_name, (data_type = ANY($1::text[]) OR udt_name = ANY($1::text[])) AS text
         FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> 'typeorm_migrations'
        ORDER BY table_name, ordinal_position`,
      [TEXT_TYPES],
    );
  });
  afterAll(() => db?.destroy());

  const declared = ALL_TABLE_COLUMNS.flatMap(({ table, personal, notPersonal }) =>
    [...personal, ...notPersonal].map((column) => `${table}.${column}`),
  );

  it('declares every text and JSON column of every table as personal or not personal', () => {
    expect(schema.length).toBeGreaterThan(50);
    const undeclared = schema.filter((c) => c.text && !declared.includes(`${c.table_name}.${c.column_name}`));
    expect(undeclared.map((c) => `${c.table_name}.${c.column_name} is declared neither personal nor notPersonal`)).toEqual([]);
  });

  it('declares only columns the schema has, each once, each table by one repository', () => {
    const existing = new Set(schema.map((c) => `${c.table_name}.${c.column_name}`));
    expect(declared.filter((column) => !existing.has(column)).map((column) => `${column} is declared but does not exist`)).toEqual([]);
    expect(declared.filter((column, i) => declared.indexOf(column) !== i).map((column) => `${column} is declared twice`)).toEqual([]);
    const tables = ALL_TABLE_COLUMNS.map((t) => t.table);
    expect(tables.filter((table, i) => tables.indexOf(table) !== i).map((table) => `${table} has two owners`)).toEqual([]);
  });
});
