import { createBoardClient } from '@pawlink/board';
import { thumbnailsDir } from '@pawlink/contracts';
import type { Logger } from '@pawlink/service-kit/logger';
import { createRedis } from '@pawlink/service-kit/redis';
import { telemetryHooks } from '@pawlink/service-kit/telemetry-hooks';
import type { ThumbsWorkerConfig } from './config.js';
import { renderStepSpans } from './render-step-spans.js';
import { DownloadRepository } from './repositories/download.repository.js';
import { ImageRepository } from './repositories/image.repository.js';
import { PostRepository } from './repositories/post.repository.js';
import { ThumbnailEncoderRepository } from './repositories/thumbnail-encoder.repository.js';
import { ThumbnailFileRepository } from './repositories/thumbnail-file.repository.js';
import { VideoRepository } from './repositories/video.repository.js';
import { WorkDirRepository } from './repositories/work-dir.repository.js';
import { ImageClipService } from './services/image-clip.service.js';
import { ThumbnailRenderService } from './services/thumbnail-render.service.js';
import { VideoClipService } from './services/video-clip.service.js';
import { WorkerStorageService } from './services/worker-storage.service.js';

/*
 * The worker's one wiring place: main.ts builds the process's side, each processor thread its own
 * (thumbnail-processor.ts). Runs on every worker thread, so it imports only light modules: the
 * config as a type, the logger type and Redis connections from service-kit's light entries. The
 * service kit's main entry would load Express, typeorm and mysql2 (~50 MB) into each thread
 * (docs/adr/0007).
 */

export interface ThumbsWorkerContainer {
  posts: PostRepository;
  workDirs: WorkDirRepository;
  downloads: DownloadRepository;
  videos: VideoRepository;
  images: ImageRepository;
  encoder: ThumbnailEncoderRepository;
  thumbnails: ThumbnailFileRepository;
  renderService: ThumbnailRenderService;
  /** Closes the board client's Redis connection. */
  close(): Promise<void>;
}

/**
 * The thread side of the worker: repositories and the render service built from the config. The
 * board client gets its own Redis connection, where the rate limiter shared by every process
 * books its slots. The processor thread builds one and keeps it between jobs; tests build their own.
 */
export function createThumbsWorkerContainer(config: ThumbsWorkerConfig, logger: Logger): ThumbsWorkerContainer {
  const redis = createRedis(config.redis, { name: 'thumbs-worker-board', logger });
  const board = createBoardClient({ ...config.board, redis, redisPrefix: config.redis.prefix, logger });
  const { worker } = config;
  const repositories = {
    posts: new PostRepository(board),
    workDirs: new WorkDirRepository(worker.tmpDir),
    downloads: new DownloadRepository({
      userAgent: config.board.userAgent,
      maxBytes: worker.maxDownloadBytes,
      timeoutMs: worker.downloadTimeoutMs,
      allowedHosts: worker.downloadHosts,
      privateHosts: worker.downloadPrivateHosts,
      maxRedirects: worker.downloadMaxRedirects,
    }),
    videos: new VideoRepository({ ffmpegPath: worker.ffmpegPath, ffprobePath: worker.ffprobePath }),
    images: new ImageRepository(),
    encoder: new ThumbnailEncoderRepository({ ffmpegPath: worker.ffmpegPath }),
    thumbnails: new ThumbnailFileRepository(thumbnailsDir(config.mediaDir)),
  };
  const steps = {
    ...repositories,
    // the clip services decide what is decoded; the repositories probe and decode
    videos: new VideoClipService(repositories.videos),
    images: new ImageClipService(repositories.images),
  };
  return {
    ...repositories,
    renderService: new ThumbnailRenderService({
      ...steps,
      // With traces on (the thread's tracing is started before this), each step is a span of the job's.
      ...(telemetryHooks() ? renderStepSpans(steps) : {}),
      logger,
      limits: worker.limits,
    }),
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** The main thread's side of the worker process: its directories, outside any job. */
export interface ThumbsWorkerProcessContainer {
  storage: WorkerStorageService;
}

/** What main.ts prepares at start and /ready checks; the jobs run on the threads' containers. */
export function createThumbsWorkerProcessContainer(config: ThumbsWorkerConfig): ThumbsWorkerProcessContainer {
  return {
    storage: new WorkerStorageService({
      thumbnails: new ThumbnailFileRepository(thumbnailsDir(config.mediaDir)),
      workDirs: new WorkDirRepository(config.worker.tmpDir),
      jobTimeoutMs: config.worker.jobTimeoutMs,
    }),
  };
}
