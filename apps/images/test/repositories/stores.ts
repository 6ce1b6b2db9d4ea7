import { createDataSource, createRedis, loadBaseConfig, migrateDatabase, type BaseConfig } from '@pawlink/service-kit';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';
import type { DataSource } from 'typeorm';
import { imagesDatabase } from '../../src/db/images.database.js';

export { imageRow } from '../image-row.js';

/** A migrated `<prefix>images` schema and a Redis connection of one test file's own, and their cleanup. */
export interface Stores {
  ctx: TestContext;
  config: BaseConfig;
  images: DataSource;
  redis: RedisClient;
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
