export * from './http.js';
export * from './test-context.js';
export * from './nginx.js';
export * from './processes.js';
