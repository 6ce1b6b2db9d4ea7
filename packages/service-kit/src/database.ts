import mysql from 'mysql2/promise';
import { DataSource, type DataSourceOptions, type Logger } from 'typeorm';
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
  return new DataSource({
    type: config.type,
    host: config.host,
    port: config.port,
    username: config.user,
    password: config.password,
    database: databaseName(config, spec.name),
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

/** Creates the database if needed and applies pending migrations; returns their names. */
export async function migrateDatabase(config: DatabaseConfig, spec: DataSourceSpec): Promise<string[]> {
  await ensureDatabase(config, spec.name);
  const dataSource = createDataSource(config, { ...spec, poolSize: 1 });
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await dataSource.destroy();
  }
}
