import { isIP } from 'node:net';
import path from 'node:path';
import {
  ConfigError,
  readBool,
  readEnum,
  readHostPorts,
  readIdentifier,
  readInt,
  readPort,
  readPortOrOff,
  readSecret,
  readString,
  readUrl,
  type Env,
  type HostPort,
} from './config.js';

export const LOG_LEVELS = ['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface DatabaseConfig {
  type: 'mariadb' | 'mysql';
  host: string;
  port: number;
  user: string;
  password: string;
  /** Databases are `<prefix>auth`, `<prefix>shortener`, `<prefix>images`. */
  prefix: string;
  /**
   * DB_READ_HOST/DB_READ_PORT: where the reads that tolerate a little lag go (a replica, or a
   * Galera cluster's reader port); absent, every query goes to `host`/`port`.
   */
  reader?: { host: string; port: number };
}

/** DB_READ_HOST (and DB_READ_PORT, default DB_PORT's value): optional; a port alone names no reader. */
function readerConfig(env: Env, writerPort: number): DatabaseConfig['reader'] {
  const host = readString(env, 'DB_READ_HOST', '');
  if (host === '') {
    if (readString(env, 'DB_READ_PORT', '') !== '')
      throw new ConfigError('DB_READ_PORT', 'is set without DB_READ_HOST: set both, or neither');
    return undefined;
  }
  return { host, port: readPort(env, 'DB_READ_PORT', writerPort) };
}

export interface RedisConfig {
  /** The one Redis; with `clusterNodes`, only its user name, password and `rediss:` (TLS) apply, to every node. */
  url: string;
  /** Every key and queue name starts with it. */
  prefix: string;
  /** REDIS_CLUSTER_NODES: seed nodes of a Redis Cluster, which then replaces the one Redis of `url`. */
  clusterNodes?: HostPort[];
}

/** How long a process waits on its dependencies before it answers 503 1004 instead. */
export interface DependencyTimeouts {
  /** Opening a MySQL connection (a stalled server accepts TCP but never answers the handshake). */
  databaseConnectMs: number;
  /** One query of a service (migrations and bin/admin have none). */
  databaseQueryMs: number;
  /** At boot, how long a process keeps trying to reach a MySQL that does not answer yet before it gives up (exit 1). */
  databaseBootWaitMs: number;
  /** Opening a Redis connection. */
  redisConnectMs: number;
  /** One Redis command. */
  redisCommandMs: number;
}

/** The HTTP server's limits against slow and greedy clients. */
export interface HttpLimits {
  /** Whole request, headers and body. */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** Open connections per process; more are refused by the server. */
  maxConnections: number;
}

export interface PublicUrls {
  shortener: string;
  images: string;
  thumbs: string;
  media: string;
  imagesMedia: string;
}

/** Where each service serves `GET /metrics`, apart from its public port (docs/configuration.md, "Metrics"). */
export interface MetricsConfig {
  /** METRICS_HOST: the address the metrics listeners bind (default 127.0.0.1). */
  host: string;
  /** `<SERVICE>_METRICS_PORT`; null when `off`, 0 picks a free port. */
  ports: { shortener: number | null; images: number | null; thumbs: number | null };
}

/** The configuration every process of the system shares (docs/configuration.md). */
export interface BaseConfig {
  /** HOST: the address the services listen on (default 127.0.0.1; `0.0.0.0` or `::` for every interface). */
  host: string;
  ports: { shortener: number; images: number; thumbs: number; media: number };
  metrics: MetricsConfig;
  urls: PublicUrls;
  mediaDir: string;
  database: DatabaseConfig;
  redis: RedisConfig;
  readOnlyDefault: boolean;
  logLevel: LogLevel;
  /** Express `trust proxy` value: hops of reverse proxies whose X-Forwarded-For is believed. */
  trustProxy: number;
  shutdownTimeoutMs: number;
  /** How long a server that got SIGTERM keeps answering (each answer closing its connection) before it stops accepting. */
  shutdownLastCallMs: number;
  bodyLimitBytes: number;
  dependencyTimeouts: DependencyTimeouts;
  http: HttpLimits;
}

function redisConfig(env: Env): RedisConfig {
  const config: RedisConfig = {
    url: readUrl(env, 'REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']),
    // No braces: the prefix must never be a cluster hash tag itself (keys choose their own).
    prefix: readIdentifier(env, 'REDIS_PREFIX', 'pawlink:', /^[A-Za-z0-9_:.-]{0,64}$/),
  };
  const clusterNodes = readHostPorts(env, 'REDIS_CLUSTER_NODES');
  if (clusterNodes) config.clusterNodes = clusterNodes;
  return config;
}

const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** An address to listen on: an IPv4 or IPv6 address (without brackets) or a host name. */
function readListenHost(env: Env, name: string, fallback: string): string {
  const value = readString(env, name, fallback);
  if (isIP(value) === 0 && !HOST_NAME.test(value)) {
    throw new ConfigError(
      name,
      `must be an IP address (IPv6 without brackets, such as ::) or a host name, got "${value.slice(0, 100)}"`,
    );
  }
  return value;
}

function databaseConfig(env: Env): DatabaseConfig {
  const port = readPort(env, 'DB_PORT', 3306);
  const config: DatabaseConfig = {
    type: readEnum(env, 'DB_TYPE', ['mariadb', 'mysql'] as const, 'mariadb'),
    host: readString(env, 'DB_HOST', '127.0.0.1'),
    port,
    user: readString(env, 'DB_USER', 'root'),
    password: readSecret(env, 'DB_PASSWORD'),
    prefix: readIdentifier(env, 'DB_PREFIX', 'pawlink_', /^[A-Za-z0-9_]{0,40}$/),
  };
  const reader = readerConfig(env, port);
  if (reader) config.reader = reader;
  return config;
}

export function loadBaseConfig(env: Env, cwd = process.cwd()): BaseConfig {
  const ports = {
    shortener: readPort(env, 'SHORTENER_PORT', 3001),
    images: readPort(env, 'IMAGES_PORT', 3002),
    thumbs: readPort(env, 'THUMBS_PORT', 3003),
    media: readPort(env, 'MEDIA_PORT', 3004),
  };
  return {
    host: readListenHost(env, 'HOST', '127.0.0.1'),
    ports,
    metrics: {
      host: readListenHost(env, 'METRICS_HOST', '127.0.0.1'),
      ports: {
        shortener: readPortOrOff(env, 'SHORTENER_METRICS_PORT', 9101),
        images: readPortOrOff(env, 'IMAGES_METRICS_PORT', 9102),
        thumbs: readPortOrOff(env, 'THUMBS_METRICS_PORT', 9103),
      },
    },
    urls: {
      shortener: readUrl(env, 'SHORTENER_URL', `http://127.0.0.1:${ports.shortener}`),
      images: readUrl(env, 'IMAGES_URL', `http://127.0.0.1:${ports.images}`),
      thumbs: readUrl(env, 'THUMBS_URL', `http://127.0.0.1:${ports.thumbs}`),
      media: readUrl(env, 'MEDIA_URL', `http://127.0.0.1:${ports.media}/thumbs`),
      imagesMedia: readUrl(env, 'IMAGES_MEDIA_URL', `http://127.0.0.1:${ports.media}/images`),
    },
    mediaDir: path.resolve(cwd, readString(env, 'MEDIA_DIR', './data/media')),
    database: databaseConfig(env),
    redis: redisConfig(env),
    readOnlyDefault: readBool(env, 'READ_ONLY', false),
    logLevel: readEnum(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    trustProxy: readInt(env, 'TRUST_PROXY', 0, { min: 0, max: 10 }),
    shutdownTimeoutMs: readInt(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, { min: 100, max: 600_000 }),
    shutdownLastCallMs: readInt(env, 'SHUTDOWN_LAST_CALL_MS', 1000, { min: 0, max: 60_000 }),
    bodyLimitBytes: readInt(env, 'BODY_LIMIT_BYTES', 100 * 1024, { min: 1024, max: 50 * 1024 * 1024 }),
    dependencyTimeouts: {
      databaseConnectMs: readInt(env, 'DB_CONNECT_TIMEOUT_MS', 1000, { min: 100, max: 60_000 }),
      databaseQueryMs: readInt(env, 'DB_QUERY_TIMEOUT_MS', 1000, { min: 100, max: 600_000 }),
      databaseBootWaitMs: readInt(env, 'DB_BOOT_WAIT_MS', 30_000, { min: 0, max: 600_000 }),
      redisConnectMs: readInt(env, 'REDIS_CONNECT_TIMEOUT_MS', 1000, { min: 100, max: 60_000 }),
      redisCommandMs: readInt(env, 'REDIS_COMMAND_TIMEOUT_MS', 1000, { min: 50, max: 60_000 }),
    },
    http: {
      requestTimeoutMs: readInt(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, { min: 1000, max: 600_000 }),
      headersTimeoutMs: readInt(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, { min: 500, max: 600_000 }),
      keepAliveTimeoutMs: readInt(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, { min: 100, max: 600_000 }),
      maxConnections: readInt(env, 'HTTP_MAX_CONNECTIONS', 10_000, { min: 10, max: 1_000_000 }),
    },
  };
}
