import { ApiKeyRepository, authDatabase, createAccessGuards, type AccessGuardsOptions } from '@pawlink/auth';
import { createTestKey } from '@pawlink/auth/testing';
import type { CreateShortUrlResponse } from '@pawlink/contracts';
import { shortenerOpenApi } from '../src/openapi.js';
import {
  createDataSource,
  createLogger,
  createRedis,
  HttpMetrics,
  metricsRequestListener,
  migrateDatabase,
  ReadOnlySwitch,
  setReadOnly,
  type Logger,
} from '@pawlink/service-kit';
import {
  createTestContext,
  jsonInit,
  request,
  serveForTest,
  type JsonResponse,
  type TestContext,
} from '@pawlink/test-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';
import type { DataSource } from 'typeorm';
import { createRequestHandler } from '../src/app.js';
import { loadShortenerConfig, type ShortenerConfig } from '../src/config.js';
import { createShortenerContainer, type ShortenerConnections, type ShortenerContainer } from '../src/container.js';
import { shortenerDatabase } from '../src/db/shortener.database.js';
import type { RedirectCacheRepository } from '../src/repositories/redirect-cache.repository.js';

export const SHORTENER_URL = 'https://pawl.ink';

/** One running shortener instance: the same request handler main.ts serves. */
export interface Instance {
  url: string;
  /** The instance's metrics listener (GET /metrics), apart from its public URL as in production. */
  metricsUrl: string;
  cache: RedirectCacheRepository;
  readOnly: ReadOnlySwitch;
  services: ShortenerContainer;
  /** Stops as SIGTERM does: the visit tally goes to Redis, a last move to MySQL. */
  close(): Promise<void>;
}

export interface Harness {
  ctx: TestContext;
  config: ShortenerConfig;
  redis: RedisClient;
  dataSource: DataSource;
  apiKeys: ApiKeyRepository;
  /** The first instance. */
  url: string;
  /** The first instance's metrics listener. */
  metricsUrl: string;
  cache: RedirectCacheRepository;
  first: Instance;
  /** A key with the shortener flag and no rate limits. */
  key: string;
  /**
   * Another instance on the same databases; `redis` replaces the shared connection for it,
   * `subscriber` its own invalidation connection (closed with it).
   */
  startInstance(options?: { redis?: RedisClient; subscriber?: RedisClient }): Promise<Instance>;
  setReadOnly(on: boolean): Promise<void>;
  close(): Promise<void>;
}

export type HarnessOverrides = Partial<Pick<ShortenerConnections, 'generateCode' | 'clock'>> & {
  /** Rate limits instead of the production policy. */
  limits?: AccessGuardsOptions['limits'];
  /** Where the instances log (default: nowhere). */
  logger?: Logger;
};

/** Fresh schemas and Redis prefix, migrated, and one instance listening on a free port. */
export async function startHarness(
  label: string,
  env: Record<string, string> = {},
  harnessOverrides: HarnessOverrides = {},
): Promise<Harness> {
  const { limits, logger: givenLogger, ...overrides } = harnessOverrides;
  const ctx = await createTestContext(label);
  const config = loadShortenerConfig({ ...ctx.env, SHORTENER_URL, ...env });
  await migrateDatabase(config.database, authDatabase);
  await migrateDatabase(config.database, shortenerDatabase);
  const logger = givenLogger ?? createLogger('shortener', 'error', { silent: true });
  const redis = createRedis(config.redis, { name: 'shortener-test' });
  const dataSource = createDataSource(config.database, shortenerDatabase);
  const authDataSource = createDataSource(config.database, authDatabase);
  await Promise.all([dataSource.initialize(), authDataSource.initialize()]);
  const apiKeys = new ApiKeyRepository(authDataSource);
  const key = await createTestKey(apiKeys, ['shortener']);
  const instances: Instance[] = [];

  async function startInstance(options: { redis?: RedisClient; subscriber?: RedisClient } = {}): Promise<Instance> {
    const subscriber =
      options.subscriber ?? createRedis(config.redis, { name: 'shortener-test-sub', subscriber: true });
    const readOnly = new ReadOnlySwitch(redis, config.redis.prefix, 'shortener', config.readOnlyDefault, logger);
    await readOnly.refresh();
    const instanceRedis = options.redis ?? redis;
    const services = createShortenerContainer({
      config,
      logger,
      redis: instanceRedis,
      subscriber,
      dataSource,
      ...overrides,
    });
    const cache = services.redirectCache;
    await cache.start();
    services.visitMover.start();
    services.visitTally.start();
    const guards = createAccessGuards({
      service: 'shortener',
      apiKeys,
      redis: instanceRedis,
      redisPrefix: config.redis.prefix,
      logger,
      ...(limits ? { limits } : {}),
    });
    const metrics = new HttpMetrics('shortener');
    const server = await serveForTest(createRequestHandler({ config, logger, services, guards, readOnly, metrics }), {
      contract: shortenerOpenApi,
    });
    const metricsServer = await serveForTest(metricsRequestListener(metrics));
    const instance: Instance = {
      url: server.url,
      metricsUrl: metricsServer.url,
      cache,
      readOnly,
      services,
      async close() {
        const index = instances.indexOf(instance);
        if (index < 0) return;
        instances.splice(index, 1);
        await server.close();
        await metricsServer.close();
        await services.visitTally.stop();
        await services.visitMover.stop();
        await cache.stop();
        await subscriber.quit();
      },
    };
    instances.push(instance);
    return instance;
  }

  const first = await startInstance();
  return {
    ctx,
    config,
    redis,
    dataSource,
    apiKeys,
    url: first.url,
    metricsUrl: first.metricsUrl,
    cache: first.cache,
    first,
    key,
    startInstance,
    async setReadOnly(on) {
      await setReadOnly(redis, config.redis.prefix, ['shortener'], on);
      for (const instance of instances) await instance.readOnly.refresh();
    },
    async close() {
      for (const instance of [...instances]) await instance.close();
      await redis.quit();
      await Promise.all([dataSource.destroy(), authDataSource.destroy()]);
      await ctx.cleanup();
    },
  };
}

export interface CreatedBody {
  success: boolean;
  code?: number;
  error?: string;
  /** The record (contracts' ShortUrlRecord) with its management code. */
  data: CreateShortUrlResponse['data'];
}

/** POST /create as JSON with the harness key (or the given headers); `editable` sends `?editable=<value>`, else no parameter (editable). */
export function create(
  h: Pick<Harness, 'url' | 'key'>,
  body: unknown,
  options: { editable?: boolean; headers?: Record<string, string> } = {},
): Promise<JsonResponse<CreatedBody>> {
  const query = options.editable === undefined ? '' : `?editable=${options.editable}`;
  return request<CreatedBody>(
    `${h.url}/create${query}`,
    jsonInit('POST', body, options.headers ?? { authorization: h.key }),
  );
}

let counter = 0;
/** A public URL no other test in the file uses. */
export const uniqueUrl = (path = 'page'): string =>
  `https://example.com/${path}/${Date.now().toString(36)}-${counter++}`;

export { jsonInit, request };

/** Resolves once `cache` has applied a peer's announcement for `code` (whatever else arrives first). */
export function invalidated(cache: RedirectCacheRepository, code: string): Promise<void> {
  return new Promise((resolve) => {
    const listener = (announced: string): void => {
      if (announced !== code) return;
      cache.off('invalidated', listener);
      resolve();
    };
    cache.on('invalidated', listener);
  });
}
