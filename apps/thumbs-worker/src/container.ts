import { createBoardClient } from '@pawlink/board';
import { thumbnailsDir } from '@pawlink/contracts';
import type { Logger } from '@pawlink/service-kit/logger';
import { Redis } from 'ioredis';
import type { ThumbsWorkerConfig } from './config.js';
import { DownloadRepository } from './repositories/download.repository.js';
import { ImageRepository } from './repositories/image.repository.js';
import { PostRepository } from './repositories/post.repository.js';
import { ThumbnailEncoderRepository } from './repositories/thumbnail-encoder.repository.js';
import { ThumbnailFileRepository } from './repositories/thumbnail-file.repository.js';
import { VideoRepository } from './repositories/video.repository.js';
import { WorkDirRepository } from './repositories/work-dir.repository.js';
import { ThumbnailRenderService } from './services/thumbnail-render.service.js';

/*
 * Runs on every worker thread, so it imports only light modules: the config as a type, the
 * logger type from service-kit's light entry, ioredis itself. The service kit's main entry would
 * load Express, typeorm and mysql2 (~50 MB) into each thread (docs/adr/0007).
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

export interface ContainerOptions {
  /** Replaces `fetch` for board files (tests). */
  fetch?: typeof fetch;
}

/**
 * The thread side of the worker: repositories and the render service built from the config. The
 * board client gets its own Redis connection, where the rate limiter shared by every process
 * books its slots. The processor thread builds one and keeps it between jobs; tests build their own.
 */
export function createThumbsWorkerContainer(config: ThumbsWorkerConfig, logger: Logger, options: ContainerOptions = {}): ThumbsWorkerContainer {
  const redis = new Redis(config.redis.url, { enableAutoPipelining: true, maxRetriesPerRequest: 2, connectionName: 'thumbs-worker-board' });
  const board = createBoardClient({ ...config.board, redis, redisPrefix: config.redis.prefix, logger });
  const { worker } = config;
  const repositories = {
    posts: new PostRepository(board),
    workDirs: new WorkDirRepository(worker.tmpDir),
    downloads: new DownloadRepository({ userAgent: config.board.userAgent, maxBytes: worker.maxDownloadBytes, timeoutMs: worker.downloadTimeoutMs, fetch: options.fetch }),
    videos: new VideoRepository({ ffmpegPath: worker.ffmpegPath, ffprobePath: worker.ffprobePath }),
    images: new ImageRepository(),
    encoder: new ThumbnailEncoderRepository(),
    thumbnails: new ThumbnailFileRepository(thumbnailsDir(config.mediaDir)),
  };
  return {
    ...repositories,
    renderService: new ThumbnailRenderService({ ...repositories, logger, limits: worker.limits }),
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
