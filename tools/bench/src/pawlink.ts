import {
  authDatabase,
  ApiKeyRepository,
  GLOBAL_RATE_LIMIT,
  RATE_LIMIT_BUCKETS,
  type RateLimitBucket,
} from '@pawlink/auth';
import { createTestKey } from '@pawlink/auth/testing';
import type { ApiKeyFlag, ServiceName } from '@pawlink/contracts';
import { createDataSource, migrateDatabase, type DatabaseConfig } from '@pawlink/service-kit';
import { HTTP_SERVICE_NODE_FLAGS } from '@pawlink/service-kit/http-service-node-flags';
import { createTestContext, freePort, type TestContext } from '@pawlink/test-kit';
import type { CeilingRateLimitConfig } from './ceiling-rate-limit.js';
import { nodeScript, startServer, type ServerProcess } from './processes.js';

/**
 * The bench client's route and global limits: counted on every request like any client's, and
 * far above what a run can send.
 */
export const BENCH_RATE_LIMIT = 1_000_000_000;

/**
 * The windows a contract-I/O ceiling counts a request of `bucket` in: the production bucket and the
 * global window, under the sandbox's Redis prefix (so its cleanup takes them too).
 */
export function ceilingWindows(bucket: RateLimitBucket, redisPrefix: string): CeilingRateLimitConfig {
  const rule = RATE_LIMIT_BUCKETS[bucket];
  return {
    prefix: `${redisPrefix}bench-ceiling:`,
    bucket,
    routeWindowMs: rule.windowMs,
    globalWindowMs: GLOBAL_RATE_LIMIT.windowMs,
    limit: rule.limit,
  };
}

/** Private databases, Redis prefix and media directory for one benchmark (`createTestContext`); `cleanup` removes them. */
export const createBenchSandbox = (): Promise<TestContext> => createTestContext('bench');

/** Migrates `<prefix>auth` and stores a key with `flags` and `BENCH_RATE_LIMIT`; returns it as a client sends it. */
export async function createBenchKey(database: DatabaseConfig, flags: ApiKeyFlag[]): Promise<string> {
  await migrateDatabase(database, authDatabase);
  const dataSource = createDataSource(database, { ...authDatabase, poolSize: 1 });
  await dataSource.initialize();
  try {
    return await createTestKey(new ApiKeyRepository(dataSource), flags, {
      name: 'bench',
      contact: 'bench@localhost',
      rateLimitRoute: BENCH_RATE_LIMIT,
      rateLimitGlobal: BENCH_RATE_LIMIT,
    });
  } finally {
    await dataSource.destroy();
  }
}

/**
 * Node's flags for the services under test: those they run with in production
 * (HTTP_SERVICE_NODE_FLAGS), and with BENCH_PROFILE_DIR set a CPU profile each writes there when
 * it stops (`--cpu-prof`; Node refuses it in NODE_OPTIONS).
 */
function serviceNodeArgs(env: NodeJS.ProcessEnv): string[] {
  const dir = env.BENCH_PROFILE_DIR;
  return [...HTTP_SERVICE_NODE_FLAGS, ...(dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [])];
}

/**
 * Runs a service's real entry (`dist/main.js`) with `env` on a free port (`<SERVICE>_PORT`,
 * `<SERVICE>_URL`), waiting for `/online`.
 */
export async function startService(service: ServiceName, main: string, env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const name = service.toUpperCase();
  // Metrics off: the fixed default port could clash with a running instance.
  return startServer({
    name: service,
    command: nodeScript(main, serviceNodeArgs(env)),
    env: { ...env, [`${name}_PORT`]: String(port), [`${name}_URL`]: url, [`${name}_METRICS_PORT`]: 'off' },
    url,
  });
}

/** Calls `task(i)` for i = 0…count-1 with at most `concurrency` running at once (setting data up through the API). */
export async function forEachConcurrently(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}
