export * from './field.js';
export * from './guards.js';
export * from './endpoint.js';
export * from './chains.js';
export * from './mount.js';
export * from './document.js';
