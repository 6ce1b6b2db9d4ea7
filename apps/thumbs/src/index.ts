export * from './app.js';
export * from './config.js';
export { JobDurationRepository, startDurationRecorder } from './thumbnails/job-duration.repository.js';
export { boardPostResolver, PostUnavailableError, type BoardLookup, type PostResolver } from './thumbnails/post-resolver.js';
export type { ThumbnailQueue } from './thumbnails/thumbnail-queue.repository.js';
