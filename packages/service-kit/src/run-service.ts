import type { ServiceName } from '@pawlink/contracts';
import type { RequestListener, Server } from 'node:http';
import type { DataSource } from 'typeorm';
import type { BaseConfig } from './base-config.js';
import type { Env } from './config.js';
import { createDataSource, openWriterConnection, type DataSourceSpec } from './database.js';
import { createLogger, type Logger } from './logger.js';
import { HttpMetrics, metricsRequestListener } from './metrics.js';
import { ReadOnlySwitch } from './read-only.js';
import { ClusterMasterCircuit } from './dependencies/cluster-master-circuit.js';
import { DatabaseCircuit, SharedWriter } from './dependencies/database-circuit.js';
import { openDataSource } from './dependencies/open-data-source.js';
import { readinessOf, redisReadiness, type Readiness, type ReadinessCheck } from './dependencies/readiness.js';
import { createRedis, failFastRedis, type RedisClient } from './redis.js';
import { telemetryHooks } from './telemetry/telemetry-hooks.js';
import { unhandledRejectionHandler } from './unhandled-rejections.js';
import {
  exitOnConfigError,
  exitOnStopSignalWhileStarting,
  installGracefulShutdown,
  labelled,
  listen,
  type Closer,
} from './serve.js';

/** What a process gets to build itself with; everything opened through it is closed on shutdown. */
export interface ServiceRuntime<C extends BaseConfig> {
  readonly config: C;
  readonly logger: Logger;
  /** Process start (unix ms), for `/online`'s uptime. */
  readonly startedAt: number;
  /**
   * A Redis connection named `name`, its failures logged once per change of state. Plain
   * connections fail fast (DB_/REDIS_*_TIMEOUT_MS); `forQueue` ones (BullMQ workers, queue events)
   * wait for Redis instead; a `subscriber` one is subscribed again by its owner (`CreateRedisOptions`).
   */
  readonly redis: (name: string, options?: { forQueue?: boolean; subscriber?: boolean }) => RedisClient;
  /** An initialised DataSource for one schema, behind a circuit that fails fast while the database is down. */
  readonly dataSource: (spec: DataSourceSpec) => Promise<DataSource>;
  /** Runs at shutdown after the server has stopped; the last registered runs first. */
  readonly onShutdown: (close: Closer) => void;
  /** The service's run-time read-only switch, polled on `redis` from now until shutdown. */
  readonly readOnlySwitch: (service: ServiceName, redis: RedisClient) => Promise<ReadOnlySwitch>;
  /** Asks what was opened through the runtime (Redis, each database) whether it answers: `/ready`. */
  readonly readiness: Readiness;
  /** The process's HTTP metrics: give them to the app; runService serves them on the metrics port. */
  readonly metrics: HttpMetrics;
}

export interface ServiceDefinition<C extends BaseConfig> {
  /** The `service` of every log line: `shortener`, `images`, `thumbs`, `thumbs-worker`. */
  name: string;
  loadConfig(env: Env): C;
  /** The port to serve on; a process without HTTP (the worker) has none. */
  port?: (config: C) => number;
  /** The port of the metrics listener (on METRICS_HOST); null or absent: none. */
  metricsPort?: (config: C) => number | null;
  /** The public base URL, for the start log line. */
  url?: (config: C) => string;
  /** Longest graceful shutdown; default the config's SHUTDOWN_TIMEOUT_MS. */
  shutdownTimeoutMs?: (config: C) => number;
  /** Builds the process; returns the request handler to serve when it has a port. */
  start(runtime: ServiceRuntime<C>): Promise<RequestListener | void>;
}

/**
 * BullMQ loses jobs when Redis evicts keys under memory pressure; so would rate limits and the
 * read-only switch. Managed Redis services may refuse CONFIG: then nothing can be said.
 */
async function warnUnlessNoEviction(redis: RedisClient, logger: Logger): Promise<void> {
  try {
    const [, policy] = (await redis.config('GET', 'maxmemory-policy')) as [string, string];
    if (policy !== undefined && policy !== 'noeviction') {
      logger.warn(
        'Redis maxmemory-policy is not noeviction: under memory pressure Redis may drop queued jobs and limits',
        { maxmemoryPolicy: policy },
      );
    }
  } catch {
    // CONFIG refused or Redis not there yet: the connection's own monitoring reports the latter.
  }
}

/** A runtime and the closers of what was opened through it (newest last). */
export interface OpenedRuntime<C extends BaseConfig> {
  runtime: ServiceRuntime<C>;
  closers: Closer[];
}

/**
 * The runtime `runService` gives a process: connections that fail fast and are watched, databases
 * behind circuits, readiness. Exported so tests can build a process's wiring in-process.
 */
export function createServiceRuntime<C extends BaseConfig>(
  config: C,
  logger: Logger,
  metricsLabel = 'service',
): OpenedRuntime<C> {
  const timeouts = config.dependencyTimeouts;
  const closers: Closer[] = [];
  const checks: Record<string, ReadinessCheck> = {};
  const circuits: DatabaseCircuit[] = [];
  // Every data source of the process reaches the same writer (config.database).
  const sharedWriter = new SharedWriter();
  // One for all the process's cluster connections: a master one of them found down is down for all.
  const masters = config.redis.clusterNodes ? new ClusterMasterCircuit({ logger }) : undefined;
  const runtime: ServiceRuntime<C> = {
    config,
    logger,
    startedAt: Date.now(),
    redis: (name, options = {}) => {
      const redis = createRedis(config.redis, {
        ...options,
        name,
        logger,
        failFast: failFastRedis(timeouts),
        masters,
      });
      closers.push(labelled(`redis ${name}`, () => redis.quit().catch(() => redis.disconnect())));
      if (!options.forQueue && !checks.redis) {
        checks.redis = redisReadiness(redis, masters);
        void warnUnlessNoEviction(redis, logger);
      }
      return redis;
    },
    dataSource: async (spec) => {
      const queryMs = timeouts.databaseQueryMs;
      const circuit = new DatabaseCircuit({
        name: spec.name,
        logger,
        connect: () => openWriterConnection(config.database, spec.name, timeouts.databaseConnectMs),
        // Within one DB_QUERY_TIMEOUT_MS: a stalled statement is noticed at a fifth, the probe
        // gives up at 0.7, and a held write answers at 0.8 of it after its request began, with
        // room for the answer;
        stallMs: Math.round(queryMs / 5),
        probeTimeoutMs: Math.round(queryMs / 2),
        recoveryProbeTimeoutMs: queryMs,
        writeDeadlineMs: Math.round(queryMs * 0.8),
        // and a held read (a paused node still in the reader pool) at 0.9
        readDeadlineMs: Math.round(queryMs * 0.9),
        shared: sharedWriter,
      });
      const dataSource = createDataSource(config.database, spec, {
        connectTimeoutMs: timeouts.databaseConnectMs,
        queryTimeoutMs: timeouts.databaseQueryMs,
        onQueryError: (error) => circuit.failed(error),
      });
      await openDataSource(dataSource, { name: spec.name, logger, waitMs: timeouts.databaseBootWaitMs });
      circuit.attach(dataSource);
      circuits.push(circuit);
      checks.database = async () => (await Promise.all(circuits.map((c) => c.check()))).every(Boolean);
      closers.push(
        labelled(`database ${spec.name}`, () => {
          circuit.stop();
          return dataSource.destroy();
        }),
      );
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
    readiness: readinessOf(checks),
    metrics: new HttpMetrics(metricsLabel),
  };
  return { runtime, closers };
}

/**
 * The one way every process boots: configuration (a bad value stops it with a message naming the
 * variable, exit 78), the JSON logger, the process's own connections, then `start`, the HTTP
 * server and its metrics listener, and a graceful shutdown on SIGTERM/SIGINT that closes what was opened, newest first.
 * A failure while starting is logged as JSON and exits 1; so is an unhandled rejection, unless it
 * says a dependency is unavailable (logged, and the process keeps serving).
 */
export async function runService<C extends BaseConfig>(definition: ServiceDefinition<C>): Promise<void> {
  let config: C;
  try {
    config = definition.loadConfig(process.env);
  } catch (error) {
    exitOnConfigError(error);
  }
  const logger = createLogger(definition.name, config.logLevel);
  process.on('unhandledRejection', unhandledRejectionHandler(logger));
  const { runtime, closers } = createServiceRuntime(config, logger, definition.name);
  const telemetry = telemetryHooks();
  // Closers run newest first: the spans of everything closed before are sent last.
  if (telemetry) closers.unshift(labelled('telemetry', () => telemetry.shutdown()));
  const releaseStartingSignals = exitOnStopSignalWhileStarting(logger);

  const servers: Server[] = [];
  try {
    const handler = await definition.start(runtime);
    if (handler && definition.port) {
      const { server, port } = await listen(handler, definition.port(config), config.host, config.http);
      servers.push(server);
      logger.info(`${definition.name} listening`, { host: config.host, port, url: definition.url?.(config) });
      const metricsPort = definition.metricsPort?.(config) ?? null;
      if (metricsPort !== null) {
        // Its own listener, so /metrics is never on the public surface; drained with the main server.
        const metrics = await listen(
          metricsRequestListener(runtime.metrics),
          metricsPort,
          config.metrics.host,
          config.http,
        );
        servers.push(metrics.server);
        logger.info(`${definition.name} metrics listening`, {
          host: config.metrics.host,
          port: metrics.port,
          path: '/metrics',
        });
      }
    }
  } catch (error) {
    logger.error(`${definition.name} could not start`, { error });
    process.exit(1);
  }

  releaseStartingSignals();
  installGracefulShutdown({
    servers,
    closers: () => [...closers].reverse(),
    logger,
    timeoutMs: definition.shutdownTimeoutMs?.(config) ?? config.shutdownTimeoutMs,
    lastCallMs: config.shutdownLastCallMs,
  });
}
