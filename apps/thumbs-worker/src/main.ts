import { mkdir } from 'node:fs/promises';
import { createLogger, createRedis, exitOnConfigError, installGracefulShutdown } from '@pawlink/service-kit';
import { loadWorkerConfig, type WorkerConfig } from './config.js';
import { removeStaleDownloadDirs, removeStaleTempFiles } from './stale-temp-files.js';
import { createThumbnailWorker } from './thumbnail.worker.js';

let config: WorkerConfig;
try {
  config = loadWorkerConfig(process.env);
} catch (error) {
  exitOnConfigError(error);
}

const logger = createLogger('thumbs-worker', config.base.logLevel);
await mkdir(config.thumbsDir, { recursive: true });
const swept = await removeStaleTempFiles(config.thumbsDir, 2 * config.jobTimeoutMs);
const sweptDownloads = await removeStaleDownloadDirs(config.tmpDir, 2 * config.jobTimeoutMs);
const connection = createRedis(config.base.redis, { forQueue: true, name: 'thumbs-worker' });
const worker = createThumbnailWorker(config, connection, logger);

// SIGTERM: stop taking jobs, let the running ones finish (worker.close waits), then exit 0.
installGracefulShutdown({
  servers: [],
  closers: [() => worker.close(), () => connection.quit()],
  logger,
  timeoutMs: config.jobTimeoutMs + config.base.shutdownTimeoutMs,
});

await worker.waitUntilReady();
logger.info('thumbs worker started', { concurrency: config.concurrency, thumbsDir: config.thumbsDir, sweptTempFiles: swept, sweptDownloadDirs: sweptDownloads, pid: process.pid });
