export * from './board-post.js';
export * from './board.errors.js';
export * from './board-rate-limiter.js';
export * from './board.client.js';
export * from './board.defaults.js';
