export * from './local-lru.js';
