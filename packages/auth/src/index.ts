export * from './access-guards.js';
export * from './db/auth.database.js';
export * from './db/entities/api-key.entity.js';
export { apiKeyOf, presentedKey } from './guards/api-key.guard.js';
export * from './repositories/api-key.repository.js';
export * from './services/api-key.service.js';
export * from './services/rate-limit.policy.js';
export * from './services/secrets.js';
