export * from './demo-board.js';
export * from './demo-media.js';
export * from './demo-posts.js';
