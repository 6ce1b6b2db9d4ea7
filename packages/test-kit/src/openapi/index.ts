export * from './contracts.js';
export * from './path-matcher.js';
export * from './response-validator.js';
export * from './route-coverage.js';
