export { createApp, type ThumbsAppDeps } from './app.js';
export { loadThumbsConfig, type ThumbsConfig, type ThumbsSettings } from './config.js';
export {
  createThumbsContainer,
  openThumbsQueueAdmin,
  type ThumbsConnections,
  type ThumbsContainer,
} from './container.js';
export { registerQueueCommands } from './cli/queue.command.js';
export type { ThumbnailQueue } from './repositories/thumbnail-queue.repository.js';
export type { QueueStatus, ThumbnailQueueAdminService } from './services/thumbnail-queue-admin.service.js';
export { thumbsOpenApi } from './openapi.js';
