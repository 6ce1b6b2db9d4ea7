export * from './input-failure.js';
export * from './validate.js';
