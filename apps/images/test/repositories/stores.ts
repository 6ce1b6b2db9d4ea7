import { createDataSource, createRedis, loadBaseConfig, migrateDatabase, type BaseConfig } from '@pawlink/service-kit';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { ImageRow } from '../../src/db/entities/image.entity.js';
import { imagesDatabase } from '../../src/db/images.database.js';

/** A migrated `<prefix>images` schema and a Redis connection of one test file's own, and their cleanup. */
export interface Stores {
  ctx: TestContext;
  config: BaseConfig;
  images: DataSource;
  redis: Redis;
  close(): Promise<void>;
}

export async function openStores(label: string): Promise<Stores> {
  const ctx = await createTestContext(label);
  const config = loadBaseConfig(ctx.env);
  await migrateDatabase(config.database, imagesDatabase);
  const images = createDataSource(config.database, { ...imagesDatabase, poolSize: 2 });
  await images.initialize();
  const redis = createRedis(config.redis, { name: 'images-repository-test' });
  return {
    ctx,
    config,
    images,
    redis,
    async close() {
      await images.destroy();
      await redis.quit();
      await ctx.cleanup();
    },
  };
}

/** An image row with made-up bytes: `n` gives it a distinct id, and its size unless given. */
export function imageRow(category: string, n: number, overrides: Partial<ImageRow> = {}): ImageRow {
  return {
    id: n.toString(16).padStart(32, '0'),
    category,
    ext: 'png',
    mimeType: 'image/png',
    size: 1000 + n,
    width: 10,
    height: 20,
    artists: ['Ann'],
    sources: ['https://example.com/a'],
    reportUrl: null,
    shortUrl: null,
    createdAt: new Date('2025-01-02T03:04:05.678Z'),
    ...overrides,
  };
}
