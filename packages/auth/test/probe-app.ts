import {
  createDataSource,
  createLogger,
  createRedis,
  createServiceApp,
  loadBaseConfig,
  migrateDatabase,
  ReadOnlySwitch,
} from '@pawlink/service-kit';
import { serveForTest, type TestContext } from '@pawlink/test-kit';
import { apiKeyOf, ApiKeyRepository, authDatabase, createAccessGuards, type RateLimitRule } from '../src/index.js';

export async function migrateAuth(ctx: TestContext) {
  const config = loadBaseConfig(ctx.env);
  await migrateDatabase(config.database, authDatabase);
  const dataSource = createDataSource(config.database, authDatabase);
  await dataSource.initialize();
  return { config, dataSource, keys: new ApiKeyRepository(dataSource) };
}

/** A key-protected probe service: the kit and the access guards wired as services do, with a test-only `probe` bucket. */
export async function startProbeApp(
  ctx: TestContext,
  limits: { probe?: RateLimitRule; global?: RateLimitRule; invalidKeys?: RateLimitRule; keyCacheMs?: number } = {},
) {
  const { config, dataSource, keys } = await migrateAuth(ctx);
  const logger = createLogger('thumbs', 'error', { silent: true });
  const redis = createRedis(config.redis);
  const readOnly = new ReadOnlySwitch(redis, config.redis.prefix, 'thumbs', false);
  const guards = createAccessGuards({
    service: 'thumbs',
    apiKeys: keys,
    redis,
    redisPrefix: config.redis.prefix,
    logger,
    keyCacheTtlMs: limits.keyCacheMs ?? 0,
    limits: {
      buckets: { probe: limits.probe ?? { limit: 5, windowMs: 60_000 } },
      invalidKeys: limits.invalidKeys ?? { limit: 0, windowMs: 60_000 },
      ...(limits.global ? { global: limits.global } : {}),
    },
  });
  const { app, finalize } = createServiceApp({ service: 'thumbs', config, logger, readOnly });
  app.get('/probe', guards.requireKey('thumbs'), guards.rateLimit('probe'), (_req, res) => {
    res.json({ success: true, keyId: apiKeyOf(res)?.id });
  });
  // A request of `n` units (a bulk's items), for the weighted limit.
  app.get(
    '/units',
    guards.requireKey('thumbs'),
    guards.rateLimit('probe', { units: (req) => Number(req.query.n) }),
    (_req, res) => {
      res.json({ success: true });
    },
  );
  app.get('/open', guards.optionalKey(), guards.rateLimit('probe'), (_req, res) => {
    res.json({ success: true, keyId: apiKeyOf(res)?.id ?? null });
  });
  finalize();
  const server = await serveForTest(app);
  return {
    url: server.url,
    keys,
    async close() {
      await server.close();
      redis.disconnect();
      await dataSource.destroy();
    },
  };
}
