import { createHash } from 'node:crypto';
import { createDataSource, loadBaseConfig, migrateDatabase } from '@pawlink/service-kit';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import type { MigrationInterface } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortenerDatabase } from '../../src/db/shortener.database.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext('sh-migrate');
});
afterAll(async () => {
  await ctx.cleanup();
});

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

describe('migration ShareOnlyFixedUrls', () => {
  it('keeps every row, keeps non-editable urls unique and lets editable entries share theirs', async () => {
    const { database } = loadBaseConfig(ctx.env);
    const all = shortenerDatabase.migrations as Array<new () => MigrationInterface>;
    const index = all.findIndex((migration) => migration.name === 'ShareOnlyFixedUrls1795900000000');
    const before = { ...shortenerDatabase, migrations: all.slice(0, index) };
    await migrateDatabase(database, before);
    const old = createDataSource(database, before);
    await old.initialize();
    const insert =
      'INSERT INTO short_urls (code, url, url_hash, credit, management_code_hash, created_at) VALUES (?, ?, ?, ?, ?, NOW(3))';
    await old.query(insert, ['fixed', 'https://example.com/fixed', sha256('https://example.com/fixed'), 'A', null]);
    await old.query(insert, [
      'mine',
      'https://example.com/mine',
      sha256('https://example.com/mine'),
      'B',
      'a'.repeat(64),
    ]);
    await old.destroy();

    expect(await migrateDatabase(database, { ...shortenerDatabase, migrations: all.slice(0, index + 1) })).toEqual([
      'ShareOnlyFixedUrls1795900000000',
    ]);
    const migrated = createDataSource(database, shortenerDatabase);
    await migrated.initialize();
    try {
      const rows: Array<{ code: string; url: string; credit: string; shared: string | null }> = await migrated.query(
        'SELECT code, url, credit, HEX(shared_url_hash) AS shared FROM short_urls ORDER BY pos',
      );
      expect(rows).toEqual([
        {
          code: 'fixed',
          url: 'https://example.com/fixed',
          credit: 'A',
          shared: sha256('https://example.com/fixed').toString('hex').toUpperCase(),
        },
        { code: 'mine', url: 'https://example.com/mine', credit: 'B', shared: null },
      ]);
      const again =
        'INSERT INTO short_urls (code, url, shared_url_hash, credit, management_code_hash, created_at) VALUES (?, ?, ?, ?, ?, NOW(3))';
      // A second editable entry for the editable one's url is allowed; a second shared one for the fixed url is not.
      await migrated.query(again, ['mine-too', 'https://example.com/mine', null, 'C', 'b'.repeat(64)]);
      await expect(
        migrated.query(again, [
          'fixed-too',
          'https://example.com/fixed',
          sha256('https://example.com/fixed'),
          'D',
          null,
        ]),
      ).rejects.toThrow(/Duplicate/);
    } finally {
      await migrated.destroy();
    }
  });
});
