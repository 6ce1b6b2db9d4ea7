export * from './config.js';
export * from './generate-thumbnail.js';
export * from './thumbnail.worker.js';
export * from './media/clip.js';
export * from './media/media.errors.js';
