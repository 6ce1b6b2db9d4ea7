/**
 * Imports that run up the layers, or pairs of files that import each other, in the packages not yet
 * converted to endpoint declarations and a domain layer (docs/adr/0016), as they stood when the
 * rule came. Each entry is a debt: the engineer who converts the package moves the rule or error
 * into `domain/` and removes its entries (the test fails on an entry that no longer holds); no entry
 * is ever added. The shortener, thumbs and the thumbs worker have none.
 */
export const LAYER_ORDER_ALLOWED: Record<string, readonly string[]> = {
  'apps/images': [
    'apps/images/src/repositories/category-cache.repository.ts → apps/images/src/services/category-key.rules.ts',
    'apps/images/src/repositories/size-index.repository.ts → apps/images/src/services/image-type.policy.ts',
    'apps/images/src/services/image-credits.rules.ts ⇄ apps/images/src/services/image-import.service.ts',
  ],
  'packages/auth': [
    'packages/auth/src/repositories/api-key.repository.ts → packages/auth/src/services/secrets.rules.ts',
    'packages/auth/src/repositories/pending-usage.repository.ts → packages/auth/src/services/usage-count.rules.ts',
    'packages/auth/src/repositories/usage-tally.repository.ts → packages/auth/src/services/usage-count.rules.ts',
    'packages/auth/src/repositories/usage.repository.ts → packages/auth/src/services/usage-count.rules.ts',
    'packages/auth/src/routes/get-status.routes.ts → packages/auth/src/access-guards.ts',
    'packages/auth/src/routes/get-status.routes.ts → packages/auth/src/usage.ts',
  ],
};
