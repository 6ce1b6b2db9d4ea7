import type { ServiceName } from '@pawlink/contracts';
import type { RequestListener, Server } from 'node:http';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { BaseConfig } from './base-config.js';
import type { Env } from './config.js';
import { createDataSource, type DataSourceSpec } from './database.js';
import { createLogger, type Logger } from './logger.js';
import { ReadOnlySwitch } from './read-only.js';
import { createRedis } from './redis.js';
import { exitOnConfigError, installGracefulShutdown, listen, type Closer } from './serve.js';

/** What a process gets to build itself with; everything opened through it is closed on shutdown. */
export interface ServiceRuntime<C extends BaseConfig> {
  readonly config: C;
  readonly logger: Logger;
  /** Process start (unix ms), for `/online`'s uptime. */
  readonly startedAt: number;
  /** A Redis connection named `name`, its failures logged once per change of state. */
  readonly redis: (name: string, options?: { forQueue?: boolean }) => Redis;
  /** An initialised DataSource for one schema. */
  readonly dataSource: (spec: DataSourceSpec) => Promise<DataSource>;
  /** Runs at shutdown after the server has stopped; the last registered runs first. */
  readonly onShutdown: (close: Closer) => void;
  /** The service's run-time read-only switch, polled on `redis` from now until shutdown. */
  readonly readOnlySwitch: (service: ServiceName, redis: Redis) => Promise<ReadOnlySwitch>;
}

export interface ServiceDefinition<C extends BaseConfig> {
  /** The `service` of every log line: `shortener`, `images`, `thumbs`, `thumbs-worker`. */
  name: string;
  loadConfig(env: Env): C;
  /** The port to serve on; a process without HTTP (the worker) has none. */
  port?: (config: C) => number;
  /** The public base URL, for the start log line. */
  url?: (config: C) => string;
  /** Longest graceful shutdown; default the config's SHUTDOWN_TIMEOUT_MS. */
  shutdownTimeoutMs?: (config: C) => number;
  /** Builds the process; returns the request handler to serve when it has a port. */
  start(runtime: ServiceRuntime<C>): Promise<RequestListener | void>;
}

/**
 * The one way every process boots: configuration (a bad value stops it with a message naming the
 * variable, exit 78), the JSON logger, the process's own connections, then `start`, the HTTP
 * server, and a graceful shutdown on SIGTERM/SIGINT that closes what was opened, newest first.
 * A failure while starting is logged as JSON and exits 1.
 */
export async function runService<C extends BaseConfig>(definition: ServiceDefinition<C>): Promise<void> {
  let config: C;
  try {
    config = definition.loadConfig(process.env);
  } catch (error) {
    exitOnConfigError(error);
  }
  const logger = createLogger(definition.name, config.logLevel);
  const closers: Closer[] = [];
  const runtime: ServiceRuntime<C> = {
    config,
    logger,
    startedAt: Date.now(),
    redis: (name, options = {}) => {
      const redis = createRedis(config.redis, { ...options, name, logger });
      closers.push(() => redis.quit().catch(() => redis.disconnect()));
      return redis;
    },
    dataSource: async (spec) => {
      const dataSource = createDataSource(config.database, spec);
      await dataSource.initialize();
      closers.push(() => dataSource.destroy());
      return dataSource;
    },
    onShutdown: (close) => {
      closers.push(close);
    },
    readOnlySwitch: async (service, redis) => {
      const readOnly = new ReadOnlySwitch(redis, config.redis.prefix, service, config.readOnlyDefault, logger);
      await readOnly.start();
      closers.push(() => Promise.resolve(readOnly.stop()));
      return readOnly;
    },
  };

  const servers: Server[] = [];
  try {
    const handler = await definition.start(runtime);
    if (handler && definition.port) {
      const { server, port } = await listen(handler, definition.port(config));
      servers.push(server);
      logger.info(`${definition.name} listening`, { port, url: definition.url?.(config) });
    }
  } catch (error) {
    logger.error(`${definition.name} could not start`, { error });
    process.exit(1);
  }

  installGracefulShutdown({
    servers,
    closers: () => [...closers].reverse(),
    logger,
    timeoutMs: definition.shutdownTimeoutMs?.(config) ?? config.shutdownTimeoutMs,
  });
}
