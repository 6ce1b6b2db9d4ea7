import mysql from 'mysql2/promise';
import { DataSource, type DataSourceOptions, type EntityManager, type Logger } from 'typeorm';
import type { DatabaseConfig } from './base-config.js';

const DATABASE_NAME = /^[A-Za-z0-9_]{1,64}$/;

/** `<DB_PREFIX><name>`, checked so it is safe to put in DDL. */
export function databaseName(config: DatabaseConfig, name: string): string {
  const full = `${config.prefix}${name}`;
  if (!DATABASE_NAME.test(full)) throw new Error(`Invalid database name: ${full}`);
  return full;
}

/** Creates the database when missing (utf8mb4); migrations then create the tables. */
export async function ensureDatabase(config: DatabaseConfig, name: string): Promise<string> {
  const full = databaseName(config, name);
  const connection = await mysql.createConnection({
    host: config.host,
    port: config.port,
    user: config.user,
    password: config.password,
  });
  try {
    await connection.query(
      `CREATE DATABASE IF NOT EXISTS \`${full}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
  } finally {
    await connection.end();
  }
  return full;
}

export async function dropDatabase(config: DatabaseConfig, name: string): Promise<void> {
  const full = databaseName(config, name);
  const connection = await mysql.createConnection({
    host: config.host,
    port: config.port,
    user: config.user,
    password: config.password,
  });
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${full}\``);
  } finally {
    await connection.end();
  }
}

/** A connection of its own to a service schema on the writer (the database circuit's probe). */
export function openWriterConnection(
  config: DatabaseConfig,
  name: string,
  connectTimeoutMs: number,
): Promise<mysql.Connection> {
  return mysql.createConnection({
    host: config.host,
    port: config.port,
    user: config.user,
    password: config.password,
    database: databaseName(config, name),
    connectTimeout: connectTimeoutMs,
  });
}

export interface DataSourceSpec {
  /** Schema name without prefix: `auth`, `shortener`, `images`. */
  name: string;
  entities: NonNullable<DataSourceOptions['entities']>;
  migrations: NonNullable<DataSourceOptions['migrations']>;
  poolSize?: number;
}

/** How a service's data source fails fast; bin/admin and migrations use none of it. */
export interface FailFastOptions {
  connectTimeoutMs: number;
  /** Each query is abandoned (and its connection closed) after this. */
  queryTimeoutMs: number;
  /** Told about every failed query (the database circuit listens here). */
  onQueryError?: (error: unknown) => void;
}

/** typeorm's logger interface, used only to hear about failed queries. */
function queryErrorListener(onQueryError: (error: unknown) => void): Logger {
  const quiet = (): void => undefined;
  return {
    logQuery: quiet,
    logQuerySlow: quiet,
    logSchemaBuild: quiet,
    logMigration: quiet,
    log: quiet,
    logQueryError: (error) => onQueryError(error),
  };
}

/** A typeorm DataSource for one service schema; never `synchronize`, always migrations. */
export function createDataSource(config: DatabaseConfig, spec: DataSourceSpec, failFast?: FailFastOptions): DataSource {
  const node = (host: string, port: number) => ({
    host,
    port,
    username: config.user,
    password: config.password,
    database: databaseName(config, spec.name),
  });
  return new DataSource({
    type: config.type,
    ...(config.reader
      ? {
          replication: {
            master: node(config.host, config.port),
            slaves: [node(config.reader.host, config.reader.port)],
            // Every query on the writer unless it asks for the reader (lagTolerantRead).
            defaultMode: 'master' as const,
            // The database circuit, not mysql2's cluster, decides when a node is down: never drop one.
            canRetry: false,
            removeNodeErrorCount: Number.MAX_SAFE_INTEGER,
          },
        }
      : node(config.host, config.port)),
    entities: spec.entities,
    migrations: spec.migrations,
    migrationsTableName: 'migrations',
    synchronize: false,
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    poolSize: spec.poolSize ?? 10,
    logging: false,
    ...(failFast
      ? {
          connectTimeout: failFast.connectTimeoutMs,
          enableQueryTimeout: true,
          maxQueryExecutionTime: failFast.queryTimeoutMs,
          ...(failFast.onQueryError ? { logger: queryErrorListener(failFast.onQueryError) } : {}),
        }
      : {}),
  });
}

/** Whether the data source was given a reader (DB_READ_HOST). */
export const hasReader = (dataSource: DataSource): boolean =>
  'replication' in dataSource.options && dataSource.options.replication !== undefined;

/**
 * A lookup on the reader that is asked again on the writer when the reader has nothing: a reader
 * may lag behind a write just made (a link created a moment ago, a key just issued), and a miss
 * is cached or answered 404 where a stale hit is not. Without a reader, one lookup, as before.
 */
export async function lagTolerantLookup<T>(
  dataSource: DataSource,
  find: (manager: EntityManager) => Promise<T | null>,
): Promise<T | null> {
  if (!hasReader(dataSource)) return find(dataSource.manager);
  return (await lagTolerantRead(dataSource, find)) ?? find(dataSource.manager);
}

/**
 * Runs `read` on the reader (DB_READ_HOST) when the data source has one, else exactly as before on
 * the data source's own manager. Only for reads that tolerate a little lag: never one that must
 * see a write just made (a redirect-cache fill, a management-code check, a read after a write in
 * the same request).
 */
export async function lagTolerantRead<T>(
  dataSource: DataSource,
  read: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  if (!hasReader(dataSource)) return read(dataSource.manager);
  const runner = dataSource.createQueryRunner('slave');
  try {
    return await read(runner.manager);
  } finally {
    await runner.release();
  }
}

/** Whether a read of a repository method that serves both kinds of caller may be a moment behind. */
export interface LagTolerance {
  lagTolerant?: boolean;
}

/** `read` on the reader when `lagTolerant` (lagTolerantRead), else on the writer. */
export function readWith<T>(
  dataSource: DataSource,
  { lagTolerant = false }: LagTolerance,
  read: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  return lagTolerant ? lagTolerantRead(dataSource, read) : read(dataSource.manager);
}

/** Creates the database if needed and applies pending migrations (on the writer); returns their names. */
export async function migrateDatabase(config: DatabaseConfig, spec: DataSourceSpec): Promise<string[]> {
  await ensureDatabase(config, spec.name);
  const { reader: _reader, ...writerOnly } = config;
  const dataSource = createDataSource(writerOnly, { ...spec, poolSize: 1 });
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await dataSource.destroy();
  }
}
