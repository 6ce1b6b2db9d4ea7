export * from './fake-board.js';
export * from './media.js';
