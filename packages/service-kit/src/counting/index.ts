export * from './batch-mover.js';
export * from './chunked-flusher.js';
