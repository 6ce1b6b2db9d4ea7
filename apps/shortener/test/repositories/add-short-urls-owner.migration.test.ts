import { createDataSource, loadBaseConfig, migrateDatabase } from '@pawlink/service-kit';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import type { MigrationInterface } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortenerDatabase } from '../../src/db/shortener.database.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext('sh-migrate-owner');
});
afterAll(async () => {
  await ctx.cleanup();
});

describe('migration AddShortUrlsOwner', () => {
  it('gives every existing entry no owner, adds the keyset index, and goes back down', async () => {
    const { database } = loadBaseConfig(ctx.env);
    const all = shortenerDatabase.migrations as Array<new () => MigrationInterface>;
    const index = all.findIndex((migration) => migration.name === 'AddShortUrlsOwner1796100000000');
    const before = { ...shortenerDatabase, migrations: all.slice(0, index) };
    await migrateDatabase(database, before);
    const old = createDataSource(database, before);
    await old.initialize();
    await old.query(
      "INSERT INTO short_urls (code, url, credit, created_at) VALUES ('old-1', 'https://example.com/1', 'A', NOW(3)), ('old-2', 'https://example.com/2', 'B', NOW(3))",
    );
    await old.destroy();

    expect(await migrateDatabase(database, { ...shortenerDatabase, migrations: all.slice(0, index + 1) })).toEqual([
      'AddShortUrlsOwner1796100000000',
    ]);
    const migrated = createDataSource(database, shortenerDatabase);
    await migrated.initialize();
    try {
      expect(await migrated.query('SELECT code, owner_key_id AS owner FROM short_urls ORDER BY pos')).toEqual([
        { code: 'old-1', owner: null },
        { code: 'old-2', owner: null },
      ]);
      const columns: Array<{ Column_name: string }> = await migrated.query(
        "SHOW INDEX FROM short_urls WHERE Key_name = 'ix_short_urls_owner_created'",
      );
      expect(columns.map((c) => c.Column_name)).toEqual(['owner_key_id', 'created_at', 'pos']);
      // The keyset query of GET /links reads that index.
      const [plan] = await migrated.query(
        'EXPLAIN SELECT pos FROM short_urls WHERE owner_key_id = 1 AND (created_at < NOW(3) OR (created_at = NOW(3) AND pos < 5)) ORDER BY created_at DESC, pos DESC LIMIT 26',
      );
      expect(plan.key).toBe('ix_short_urls_owner_created');

      await migrated.undoLastMigration();
      const after: Array<{ Field: string }> = await migrated.query('SHOW COLUMNS FROM short_urls');
      expect(after.map((c) => c.Field)).not.toContain('owner_key_id');
    } finally {
      await migrated.destroy();
    }
  });
});
