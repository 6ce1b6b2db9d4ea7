import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

/** TCP proxies in front of the real MariaDB and Redis of a test's environment, for a test to stall or cut. */
export interface DependencyProxies {
  db: TcpProxy;
  redis: TcpProxy;
  /** `env` with DB_HOST, DB_PORT and REDIS_URL pointing at the proxies. */
  env: Record<string, string>;
  /** Lets every proxy forward again (before closing what connected through them, so nothing waits on a cut). */
  restore(): void;
  /** Restores and stops both proxies (after what connected through them is closed). */
  close(): Promise<void>;
}

/** Proxies for the MariaDB and Redis `env` names (the defaults of `loadBaseConfig` when it names none). */
export async function startDependencyProxies(env: Record<string, string>): Promise<DependencyProxies> {
  const redisTarget = new URL(env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const db = await startTcpProxy({ host: env.DB_HOST ?? '127.0.0.1', port: Number(env.DB_PORT ?? 3306) });
  const redis = await startTcpProxy({ host: redisTarget.hostname, port: Number(redisTarget.port || 6379) });
  const restore = (): void => {
    db.restore();
    redis.restore();
  };
  return {
    db,
    redis,
    env: { ...env, DB_HOST: db.host, DB_PORT: String(db.port), REDIS_URL: `redis://${redis.host}:${redis.port}` },
    restore,
    async close() {
      restore();
      await db.close();
      await redis.close();
    },
  };
}
