export * from './api-key.entity.js';
export * from './api-key.middleware.js';
export * from './api-key.repository.js';
export * from './auth.database.js';
export * from './rate-limit.middleware.js';
export * from './rate-limit.policy.js';
export * from './rate-limiter.js';
export * from './secrets.js';
