import { thumbnailsDir } from '@pawlink/contracts';
import { runService } from '@pawlink/service-kit';
import { loadThumbsWorkerConfig } from './config.js';
import { startHealthServer } from './health/health.server.js';
import { createThumbnailWorker } from './jobs/thumbnail.worker.js';
import { DependencyChecksRepository } from './repositories/dependency-checks.repository.js';
import { ThumbnailFileRepository } from './repositories/thumbnail-file.repository.js';
import { WorkDirRepository } from './repositories/work-dir.repository.js';

/** How long /ready waits for Redis or the disk before calling it down. */
const READINESS_TIMEOUT_MS = 1000;

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
    const { health } = config.worker;
    if (health.port !== null) {
      // Its own plain connection: a PING on the queue's would wait behind blocking commands.
      const checks = new DependencyChecksRepository(runtime.redis('thumbs-worker-health'), thumbnails.dir, READINESS_TIMEOUT_MS);
      const server = await startHealthServer({ host: health.host, port: health.port, checks, startedAt: runtime.startedAt, logger });
      // Registered before the worker, so it is closed after it: probes keep answering while jobs drain.
      runtime.onShutdown(() => server.close());
    }
    const worker = createThumbnailWorker(config, runtime.redis('thumbs-worker', { forQueue: true }), logger);
    runtime.onShutdown(() => worker.close());
    await worker.waitUntilReady();
    logger.info('thumbs worker started', { concurrency: config.worker.concurrency, thumbsDir: thumbnails.dir, sweptTempFiles: swept, sweptDownloadDirs: sweptDownloads, pid: process.pid });
  },
});
