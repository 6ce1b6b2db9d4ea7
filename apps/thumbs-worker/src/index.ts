export * from './config.js';
export * from './container.js';
export * from './jobs/thumbnail.worker.js';
export * from './services/thumbnail-render.service.js';
export * from './domain/thumbnail.errors.js';
