import { ApiKeyRepository, ApiKeyService, authDatabase } from '@pawlink/auth';
import { createDataSource, createRedis, loadBaseConfig, type BaseConfig, type DataSourceSpec } from '@pawlink/service-kit';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';

/**
 * What a command may need, opened on first use and closed once the command ends, so a
 * command that only touches Redis never opens MySQL and vice versa.
 */
export class AdminContext {
  readonly config: BaseConfig;
  private redisClient: Redis | undefined;
  private readonly dataSources = new Map<string, DataSource>();

  constructor(env: NodeJS.ProcessEnv = process.env, root = env.PAWLINK_ROOT ?? process.cwd()) {
    this.config = loadBaseConfig(env, root);
  }

  get redis(): Redis {
    this.redisClient ??= createRedis(this.config.redis, { name: 'admin' });
    return this.redisClient;
  }

  async dataSource(spec: DataSourceSpec): Promise<DataSource> {
    const existing = this.dataSources.get(spec.name);
    if (existing) return existing;
    const dataSource = createDataSource(this.config.database, { ...spec, poolSize: 2 });
    await dataSource.initialize();
    this.dataSources.set(spec.name, dataSource);
    return dataSource;
  }

  async apiKeys(): Promise<ApiKeyService> {
    return new ApiKeyService(new ApiKeyRepository(await this.dataSource(authDatabase)));
  }

  async close(): Promise<void> {
    for (const dataSource of this.dataSources.values()) await dataSource.destroy();
    this.dataSources.clear();
    if (this.redisClient) await this.redisClient.quit();
    this.redisClient = undefined;
  }
}
