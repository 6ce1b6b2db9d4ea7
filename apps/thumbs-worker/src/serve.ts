/** The thumbs-worker process, loaded by main.ts once telemetry (when on) is started. */
import { listen, metricsRequestListener, runService, telemetryHooks, type ReadinessReport } from '@pawlink/service-kit';
import { createCallbackContainer, openAuthDataSource } from './callback-container.js';
import { loadThumbsWorkerConfig } from './config.js';
import { createThumbsWorkerProcessContainer } from './container.js';
import { startHealthServer } from './health/health.server.js';
import { createCallbackDeliveryWorker } from './jobs/callback-delivery.worker.js';
import { jobTraceContextReader, startThumbnailEndWatcher } from './jobs/thumbnail-end.worker.js';
import { isConnectionError } from './jobs/thumbnail-queue-errors.worker.js';
import { createThumbnailWorker } from './jobs/thumbnail.worker.js';
import { ThumbsWorkerMetrics } from './metrics/worker.metrics.js';

await runService({
  name: 'thumbs-worker',
  loadConfig: loadThumbsWorkerConfig,
  // SIGTERM stops taking jobs and lets the running ones finish (worker.close waits for them).
  shutdownTimeoutMs: (config) => config.worker.jobTimeoutMs + config.shutdownTimeoutMs,
  async start(runtime) {
    const { config, logger } = runtime;
    const render = config.roles.includes('render');
    const { storage } = createThumbsWorkerProcessContainer(config);
    const prepared = render ? await storage.prepare() : undefined;
    // A plain (fail-fast) connection besides the queue's, which waits for Redis as long as it takes:
    // the runtime checks maxmemory-policy on it at start, and readiness PINGs it.
    const checks = runtime.redis('thumbs-worker-checks');
    const { health, metricsPort } = config.worker;
    const readiness = async (): Promise<ReadinessReport> => {
      if (!render) return runtime.readiness();
      const [dependencies, media] = await Promise.all([runtime.readiness(), storage.mediaState()]);
      return { ...dependencies, media };
    };
    const metrics = new ThumbsWorkerMetrics(runtime.metrics.registry);
    runtime.metrics.trackReadiness(readiness);
    if (metricsPort !== null) {
      // As the services': its own listener on METRICS_HOST, closed after the workers like the health server.
      const listener = await listen(
        metricsRequestListener(runtime.metrics),
        metricsPort,
        config.metrics.host,
        config.http,
      );
      logger.info('thumbs-worker metrics listening', {
        host: config.metrics.host,
        port: listener.port,
        path: '/metrics',
      });
      runtime.onShutdown(
        () =>
          new Promise<void>((resolve) => {
            listener.server.closeAllConnections();
            listener.server.close(() => resolve());
          }),
      );
    }
    if (health.port !== null) {
      const server = await startHealthServer({
        host: health.host,
        port: health.port,
        readiness,
        startedAt: runtime.startedAt,
        logger,
      });
      // Registered before the workers, so it is closed after them: probes keep answering while jobs drain.
      runtime.onShutdown(() => server.close());
    }
    if (config.roles.includes('callbacks')) {
      const callbacks = createCallbackContainer(config, {
        redis: checks,
        queueRedis: runtime.redis('thumbs-callbacks', { forQueue: true }),
        authDataSource: openAuthDataSource(config),
      });
      // A lost connection is logged by the connection itself, once per change of state.
      callbacks.queue.on('error', (error) => {
        if (!isConnectionError(error)) logger.error('callback queue error', { error });
      });
      runtime.onShutdown(() => callbacks.close());
      const delivering = createCallbackDeliveryWorker(
        config,
        runtime.redis('thumbs-callback-worker', { forQueue: true }),
        callbacks.delivery,
        logger,
        { metrics },
      );
      runtime.onShutdown(() => delivering.close());
      const traceContexts = telemetryHooks() ? jobTraceContextReader(checks, config.redis.prefix) : undefined;
      if (traceContexts) runtime.onShutdown(() => traceContexts.close());
      const watcher = await startThumbnailEndWatcher({
        connection: runtime.redis('thumbs-end-events', { forQueue: true }),
        redisPrefix: config.redis.prefix,
        cursor: callbacks.cursor,
        dispatch: callbacks.dispatch,
        logger,
        traceContextOf: traceContexts && ((jobId) => traceContexts.read(jobId)),
      });
      runtime.onShutdown(() => watcher.close());
      await delivering.waitUntilReady();
    }
    if (render) {
      const worker = createThumbnailWorker(config, runtime.redis('thumbs-worker', { forQueue: true }), logger, {
        metrics,
      });
      runtime.onShutdown(() => worker.close());
      await worker.waitUntilReady();
    }
    logger.info('thumbs worker started', {
      roles: config.roles,
      concurrency: config.worker.concurrency,
      thumbsDir: prepared?.thumbsDir,
      sweptTempFiles: prepared?.sweptTempFiles,
      sweptDownloadDirs: prepared?.sweptDownloadDirs,
      pid: process.pid,
    });
  },
});
