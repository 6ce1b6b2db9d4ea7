export * from './http.js';
export * from './test-context.js';
export * from './nginx.js';
export * from './processes.js';
export * from './tcp-proxy.js';
export * from './dependency-proxies.js';
export * from './openapi/index.js';
export * from './redis-answers.js';
