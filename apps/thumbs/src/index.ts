export { createApp, type ThumbsAppDeps } from './app.js';
export { loadThumbsConfig, type ThumbsConfig, type ThumbsSettings } from './config.js';
export { createThumbsContainer, createThumbsQueueAdmin, type ThumbsConnections, type ThumbsContainer } from './container.js';
export { registerQueueCommands } from './cli/queue.command.js';
export type { CliCommand, ThumbsCliContext } from './cli/cli-context.js';
export { openThumbnailQueue, type ThumbnailQueue } from './repositories/thumbnail-queue.repository.js';
export type { QueueStatus, ThumbnailQueueAdminService } from './services/thumbnail-queue-admin.service.js';
