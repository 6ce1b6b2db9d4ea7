import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import mysql from 'mysql2/promise';

export interface TestContext {
  /** Environment for `loadBaseConfig`: unique DB_PREFIX, REDIS_PREFIX and MEDIA_DIR. */
  env: Record<string, string>;
  dbPrefix: string;
  redisPrefix: string;
  mediaDir: string;
  /** Drops this context's databases, Redis keys and media directory. */
  cleanup(): Promise<void>;
}

const baseEnv = (): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const name of ['DB_HOST', 'DB_PORT', 'DB_USER', 'DB_PASSWORD', 'DB_TYPE', 'REDIS_URL']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
};

/** Databases `t_<random>_*` and Redis keys `t:<random>:*`, so test files run in parallel safely. */
export async function createTestContext(label = 'test'): Promise<TestContext> {
  const id = randomBytes(4).toString('hex');
  const dbPrefix = `t_${id}_`;
  const redisPrefix = `t:${label}:${id}:`;
  const mediaDir = await mkdtemp(path.join(os.tmpdir(), `pawlink-${label}-`));
  const env: Record<string, string> = {
    ...baseEnv(),
    DB_PREFIX: dbPrefix,
    REDIS_PREFIX: redisPrefix,
    MEDIA_DIR: mediaDir,
    LOG_LEVEL: 'error',
  };
  return {
    env,
    dbPrefix,
    redisPrefix,
    mediaDir,
    async cleanup() {
      await dropDatabasesWithPrefix(dbPrefix, env);
      await deleteRedisKeys(redisPrefix, env.REDIS_URL);
      await rm(mediaDir, { recursive: true, force: true });
    },
  };
}

export async function dropDatabasesWithPrefix(prefix: string, env: Record<string, string> = baseEnv()): Promise<void> {
  if (!/^t_[0-9a-f]+_$/.test(prefix)) throw new Error(`refusing to drop databases with prefix ${prefix}`);
  const connection = await mysql.createConnection({
    host: env.DB_HOST ?? '127.0.0.1',
    port: Number(env.DB_PORT ?? 3306),
    user: env.DB_USER ?? 'root',
    password: env.DB_PASSWORD ?? '',
  });
  try {
    const [rows] = await connection.query<mysql.RowDataPacket[]>('SHOW DATABASES');
    for (const row of rows) {
      const name = String(Object.values(row)[0]);
      if (name.startsWith(prefix)) await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
    }
  } finally {
    await connection.end();
  }
}

export async function deleteRedisKeys(prefix: string, url = 'redis://127.0.0.1:6379'): Promise<void> {
  const redis = new Redis(url, { lazyConnect: false });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
