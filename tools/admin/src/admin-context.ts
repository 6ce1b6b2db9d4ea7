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
  openDataSource,
  type BaseConfig,
  type DataSourceSpec,
  type LogSink,
} from '@pawlink/service-kit';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CommandFailure, type CliContext } from '@pawlink/service-kit/cli';
import {
  ExportLinksService,
  LinkExportRepository,
  LinkImportRepository,
  loadShortenerConfig,
  shortenerDatabase,
} from '@pawlink/shortener';
import type { RedisClient } from '@pawlink/service-kit/redis';
import type { DataSource } from 'typeorm';
import { parseDotEnv, secretsKeyFileOf, withDotEnv } from './services/start-environment.rules.js';

/** The checkout's `.env`, as scripts/bootstrap.sh reads it; empty when there is none. */
function dotEnvOf(root: string): Map<string, string> {
  try {
    return parseDotEnv(readFileSync(path.join(root, '.env'), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
}

/** openDataSource's two lines, for the operator: on stderr, so a command's output stays its own. */
const stderrNotes: LogSink = {
  warn: (message, meta) => void process.stderr.write(`bin/admin: ${message} ${JSON.stringify(meta ?? {})}\n`),
  info: (message, meta) => void process.stderr.write(`bin/admin: ${message} ${JSON.stringify(meta ?? {})}\n`),
};

/**
 * What a command may need, opened on first use and closed once the command ends, so a
 * command that only touches Redis never opens MySQL and vice versa.
 */
export class AdminContext implements CliContext {
  readonly config: BaseConfig;
  private redisClient: RedisClient | undefined;
  private queueClient: RedisClient | undefined;
  private readonly dataSources = new Map<string, DataSource>();

  private readonly env: NodeJS.ProcessEnv;

  /**
   * `env` completed as `npm start` completes it: the checkout's `.env` (in `root`) fills in what
   * the environment does not set, so bin/admin beside `npm start` finds the same databases, Redis
   * prefix and data directory.
   */
  constructor(
    env: NodeJS.ProcessEnv = process.env,
    private readonly root = env.PAWLINK_ROOT ?? process.cwd(),
  ) {
    this.env = withDotEnv(env, dotEnvOf(root));
    this.config = loadBaseConfig(this.env, root);
  }

  get redis(): RedisClient {
    this.redisClient ??= createRedis(this.config.redis, { name: 'admin' });
    return this.redisClient;
  }

  queueRedis(): RedisClient {
    this.queueClient ??= createRedis(this.config.redis, { forQueue: true, name: 'admin-queue' });
    return this.queueClient;
  }

  /**
   * A schema's data source, opened on first use as a service opens its own (`openDataSource`): a
   * MySQL that does not answer yet, or a connection cut while a writer fails over (Galera behind
   * HAProxy), is tried again for DB_BOOT_WAIT_MS, with one line on stderr.
   */
  async dataSource(spec: DataSourceSpec): Promise<DataSource> {
    const existing = this.dataSources.get(spec.name);
    if (existing) return existing;
    const dataSource = createDataSource(this.config.database, { ...spec, poolSize: 2 });
    await openDataSource(dataSource, {
      name: spec.name,
      logger: stderrNotes,
      waitMs: this.config.dependencyTimeouts.databaseBootWaitMs,
    });
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

  /**
   * Webhook secrets, sealed with PAWLINK_SECRETS_KEY, or else with the key `npm start` keeps for
   * this data directory (PAWLINK_DATA_DIR/keys/secrets.key). Neither, or a malformed one: refused
   * here, naming the variable and the file.
   */
  async webhookSecrets(): Promise<WebhookSecretService> {
    let text = this.env.PAWLINK_SECRETS_KEY ?? '';
    let source = 'PAWLINK_SECRETS_KEY';
    if (text === '') {
      const file = secretsKeyFileOf(this.env, this.root);
      text = (await readSecretsKeyFile(file)).trim();
      if (text === '') {
        throw new CommandFailure(
          `PAWLINK_SECRETS_KEY is not set and ${file} does not exist: webhook secrets are sealed with that key. Set PAWLINK_SECRETS_KEY (64 hex digits, the same the callback workers have), or run npm start once with this data directory (PAWLINK_DATA_DIR), which makes the file.`,
        );
      }
      source = file;
    }
    const secretsKey = parseSecretsKey(text);
    if (!secretsKey) throw new CommandFailure(`${source} must hold 64 hex digits (or base64 of 32 bytes).`);
    return new WebhookSecretService({ keys: await this.keyRepository(), secretsKey });
  }

  /** Imported links' storage in `<DB_PREFIX>shortener`. */
  async linkImports(): Promise<LinkImportRepository> {
    return new LinkImportRepository(await this.dataSource(shortenerDatabase));
  }

  /** The export GET /links/export streams, read from `<DB_PREFIX>shortener` directly. */
  async linkExport(): Promise<ExportLinksService> {
    return new ExportLinksService({ repository: new LinkExportRepository(await this.dataSource(shortenerDatabase)) });
  }

  /** SHORTENER_PRIVATE_TARGET_PREFIXES, read as the shortener reads it (its targets skip the host checks). */
  privateTargetPrefixes(): string[] {
    return loadShortenerConfig(this.env, this.root).shortener.privateTargetPrefixes;
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

/** The secrets key file's text; empty when it does not exist. */
async function readSecretsKeyFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return '';
    throw new CommandFailure(
      `PAWLINK_SECRETS_KEY is not set and ${file} cannot be read (${code ?? String(error)}): run bin/admin as the user who runs npm start, or set PAWLINK_SECRETS_KEY.`,
    );
  }
}
