import { createDataSource, databaseName, loadBaseConfig } from '@pawlink/service-kit';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES } from '../src/databases.js';
import { runAdmin } from './run-admin.js';

/*
 * What a Galera cluster requires of every table (ADR 0019): InnoDB (the only engine it
 * replicates) and a primary key (rows without one replicate unreliably and are refused under
 * `wsrep_mode=REQUIRED_PRIMARY_KEY`), checked on what `bin/admin migrate` leaves behind for every
 * service's schema.
 */

let ctx: TestContext;
let connection: DataSource;
let schemas: string[];

beforeAll(async () => {
  ctx = await createTestContext('admin-schema');
  const migrated = await runAdmin(ctx.env, ['migrate']);
  expect(migrated.code).toBe(0);
  const { database } = loadBaseConfig(ctx.env);
  schemas = DATABASES.map((spec) => databaseName(database, spec.name));
  // Any of the schemas will do: information_schema is read across them.
  connection = createDataSource(database, { name: DATABASES[0]!.name, entities: [], migrations: [], poolSize: 1 });
  await connection.initialize();
});

afterAll(async () => {
  await connection?.destroy();
  await ctx?.cleanup();
});

describe('the schemas after every migration', () => {
  it('hold only InnoDB tables, each with a primary key', async () => {
    const tables = await connection.query<
      Array<{ schemaName: string; tableName: string; engine: string; hasPrimaryKey: string | number }>
    >(
      `SELECT t.TABLE_SCHEMA AS schemaName, t.TABLE_NAME AS tableName, t.ENGINE AS engine,
              EXISTS (SELECT 1 FROM information_schema.TABLE_CONSTRAINTS c
                       WHERE c.TABLE_SCHEMA = t.TABLE_SCHEMA AND c.TABLE_NAME = t.TABLE_NAME
                         AND c.CONSTRAINT_TYPE = 'PRIMARY KEY') AS hasPrimaryKey
         FROM information_schema.TABLES t
        WHERE t.TABLE_SCHEMA IN (?) AND t.TABLE_TYPE = 'BASE TABLE'
        ORDER BY t.TABLE_SCHEMA, t.TABLE_NAME`,
      [schemas],
    );
    // Every service's schema was migrated (its tables and typeorm's `migrations`).
    for (const schema of schemas) {
      expect(tables.filter((t) => t.schemaName === schema).length, schema).toBeGreaterThan(1);
    }
    const unfit = tables
      .filter((t) => t.engine !== 'InnoDB' || Number(t.hasPrimaryKey) !== 1)
      .map((t) => `${t.schemaName}.${t.tableName} (${t.engine}, primary key: ${Number(t.hasPrimaryKey) === 1})`);
    expect(unfit).toEqual([]);
  });
});
