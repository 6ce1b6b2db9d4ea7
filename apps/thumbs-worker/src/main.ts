import '@pawlink/service-kit/check-node';
import { runService, type ReadinessReport } from '@pawlink/service-kit';
import { loadThumbsWorkerConfig } from './config.js';
import { createThumbsWorkerProcessContainer } from './container.js';
import { startHealthServer } from './health/health.server.js';
import { createThumbnailWorker } from './jobs/thumbnail.worker.js';

await runService({
  name: 'thumbs-worker',
  loadConfig: loadThumbsWorkerConfig,
  // SIGTERM stops taking jobs and lets the running ones finish (worker.close waits for them).
  shutdownTimeoutMs: (config) => config.worker.jobTimeoutMs + config.shutdownTimeoutMs,
  async start(runtime) {
    const { config, logger } = runtime;
    const { storage } = createThumbsWorkerProcessContainer(config);
    const prepared = await storage.prepare();
    // A plain (fail-fast) connection besides the queue's, which waits for Redis as long as it takes:
    // the runtime checks maxmemory-policy on it at start, and readiness PINGs it.
    runtime.redis('thumbs-worker-checks');
    const { health } = config.worker;
    if (health.port !== null) {
      const readiness = async (): Promise<ReadinessReport> => {
        const [dependencies, media] = await Promise.all([runtime.readiness(), storage.mediaState()]);
        return { ...dependencies, media };
      };
      const server = await startHealthServer({ host: health.host, port: health.port, readiness, startedAt: runtime.startedAt, logger });
      // Registered before the worker, so it is closed after it: probes keep answering while jobs drain.
      runtime.onShutdown(() => server.close());
    }
    const worker = createThumbnailWorker(config, runtime.redis('thumbs-worker', { forQueue: true }), logger);
    runtime.onShutdown(() => worker.close());
    await worker.waitUntilReady();
    logger.info('thumbs worker started', { concurrency: config.worker.concurrency, thumbsDir: prepared.thumbsDir, sweptTempFiles: prepared.sweptTempFiles, sweptDownloadDirs: prepared.sweptDownloadDirs, pid: process.pid });
  },
});
