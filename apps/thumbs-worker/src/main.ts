import '@pawlink/service-kit/check-node';
import { thumbnailsDir } from '@pawlink/contracts';
import { runService, type ReadinessReport } from '@pawlink/service-kit';
import { loadThumbsWorkerConfig } from './config.js';
import { startHealthServer } from './health/health.server.js';
import { createThumbnailWorker } from './jobs/thumbnail.worker.js';
import { ThumbnailFileRepository } from './repositories/thumbnail-file.repository.js';
import { WorkDirRepository } from './repositories/work-dir.repository.js';

/** How long /ready waits for the disk before calling it down (Redis has the runtime's command timeout). */
const MEDIA_CHECK_TIMEOUT_MS = 1000;

await runService({
  name: 'thumbs-worker',
  loadConfig: loadThumbsWorkerConfig,
  // SIGTERM stops taking jobs and lets the running ones finish (worker.close waits for them).
  shutdownTimeoutMs: (config) => config.worker.jobTimeoutMs + config.shutdownTimeoutMs,
  async start(runtime) {
    const { config, logger } = runtime;
    const thumbnails = new ThumbnailFileRepository(thumbnailsDir(config.mediaDir));
    await thumbnails.ensureDir();
    // Leftovers of killed workers: older than twice the job budget, no running job can own them.
    const staleAfterMs = 2 * config.worker.jobTimeoutMs;
    const swept = await thumbnails.removeStaleTempFiles(staleAfterMs);
    const sweptDownloads = await new WorkDirRepository(config.worker.tmpDir).removeStale(staleAfterMs);
    // A plain (fail-fast) connection besides the queue's, which waits for Redis as long as it takes:
    // the runtime checks maxmemory-policy on it at start, and readiness PINGs it.
    runtime.redis('thumbs-worker-checks');
    const { health } = config.worker;
    if (health.port !== null) {
      const readiness = async (): Promise<ReadinessReport> => {
        const [dependencies, media] = await Promise.all([runtime.readiness(), thumbnails.isWritable(MEDIA_CHECK_TIMEOUT_MS)]);
        return { ...dependencies, media: media ? 'up' : 'down' };
      };
      const server = await startHealthServer({ host: health.host, port: health.port, readiness, startedAt: runtime.startedAt, logger });
      // Registered before the worker, so it is closed after it: probes keep answering while jobs drain.
      runtime.onShutdown(() => server.close());
    }
    const worker = createThumbnailWorker(config, runtime.redis('thumbs-worker', { forQueue: true }), logger);
    runtime.onShutdown(() => worker.close());
    await worker.waitUntilReady();
    logger.info('thumbs worker started', { concurrency: config.worker.concurrency, thumbsDir: thumbnails.dir, sweptTempFiles: swept, sweptDownloadDirs: sweptDownloads, pid: process.pid });
  },
});
