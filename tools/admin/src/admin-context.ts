import {
  ApiKeyAdminService,
  ApiKeyRepository,
  authDatabase,
  KeyUsageService,
  PendingUsageRepository,
  UsageRepository,
  WebhookSecretService,
  parseSecretsKey,
} from '@pawlink/auth';
import {
  createDataSource,
  createRedis,
  loadBaseConfig,
  type BaseConfig,
  type DataSourceSpec,
} from '@pawlink/service-kit';
import { CommandFailure, type CliContext } from '@pawlink/service-kit/cli';
import type { RedisClient } from '@pawlink/service-kit/redis';
import type { DataSource } from 'typeorm';

/**
 * What a command may need, opened on first use and closed once the command ends, so a
 * command that only touches Redis never opens MySQL and vice versa.
 */
export class AdminContext implements CliContext {
  readonly config: BaseConfig;
  private redisClient: RedisClient | undefined;
  private queueClient: RedisClient | undefined;
  private readonly dataSources = new Map<string, DataSource>();

  constructor(
    private readonly env: NodeJS.ProcessEnv = process.env,
    root = env.PAWLINK_ROOT ?? process.cwd(),
  ) {
    this.config = loadBaseConfig(env, root);
  }

  get redis(): RedisClient {
    this.redisClient ??= createRedis(this.config.redis, { name: 'admin' });
    return this.redisClient;
  }

  queueRedis(): RedisClient {
    this.queueClient ??= createRedis(this.config.redis, { forQueue: true, name: 'admin-queue' });
    return this.queueClient;
  }

  async dataSource(spec: DataSourceSpec): Promise<DataSource> {
    const existing = this.dataSources.get(spec.name);
    if (existing) return existing;
    const dataSource = createDataSource(this.config.database, { ...spec, poolSize: 2 });
    await dataSource.initialize();
    this.dataSources.set(spec.name, dataSource);
    return dataSource;
  }

  async apiKeys(): Promise<ApiKeyAdminService> {
    return new ApiKeyAdminService(new ApiKeyRepository(await this.dataSource(authDatabase)));
  }

  /** The keys' storage itself, for commands that look a key up by its value. */
  async keyRepository(): Promise<ApiKeyRepository> {
    return new ApiKeyRepository(await this.dataSource(authDatabase));
  }

  /** Webhook secrets, sealed with PAWLINK_SECRETS_KEY (unset: the service says so when used; malformed: refused here). */
  async webhookSecrets(): Promise<WebhookSecretService> {
    const text = this.env.PAWLINK_SECRETS_KEY ?? '';
    const secretsKey = text === '' ? null : parseSecretsKey(text);
    if (text !== '' && !secretsKey)
      throw new CommandFailure('PAWLINK_SECRETS_KEY must be 64 hex digits (or base64 of 32 bytes).');
    return new WebhookSecretService({ keys: await this.keyRepository(), secretsKey });
  }

  /** Key usage as MySQL and Redis hold it (the services' unflushed last second is not seen). */
  async keyUsage(): Promise<{ keys: ApiKeyRepository; usage: KeyUsageService }> {
    const dataSource = await this.dataSource(authDatabase);
    const usage = new KeyUsageService({
      usage: new UsageRepository(dataSource),
      pending: new PendingUsageRepository(this.redis, this.config.redis.prefix),
      now: Date.now,
    });
    return { keys: new ApiKeyRepository(dataSource), usage };
  }

  async close(): Promise<void> {
    for (const dataSource of this.dataSources.values()) await dataSource.destroy();
    this.dataSources.clear();
    if (this.redisClient) await this.redisClient.quit();
    if (this.queueClient) await this.queueClient.quit();
    this.redisClient = undefined;
    this.queueClient = undefined;
  }
}
