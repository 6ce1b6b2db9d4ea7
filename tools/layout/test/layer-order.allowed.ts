/**
 * Imports that run up the layers, or pairs of files that import each other, in the packages not yet
 * converted to endpoint declarations and a domain layer (docs/adr/0016), as they stood when the
 * rule came. Each entry is a debt: the engineer who converts the package moves the rule or error
 * into `domain/` and removes its entries (the test fails on an entry that no longer holds); no entry
 * is ever added. The shortener and thumbs have none.
 */
export const LAYER_ORDER_ALLOWED: Record<string, readonly string[]> = {
  'apps/images': [
    'apps/images/src/repositories/category-cache.repository.ts → apps/images/src/services/category-key.rules.ts',
    'apps/images/src/repositories/size-index.repository.ts → apps/images/src/services/image-type.policy.ts',
    'apps/images/src/services/image-credits.rules.ts ⇄ apps/images/src/services/image-import.service.ts',
  ],
  'apps/thumbs-worker': [
    'apps/thumbs-worker/src/jobs/generate-thumbnail.job.ts → apps/thumbs-worker/src/container.ts',
    'apps/thumbs-worker/src/repositories/callback-sender.repository.ts → apps/thumbs-worker/src/services/callback.errors.ts',
    'apps/thumbs-worker/src/repositories/download.repository.ts → apps/thumbs-worker/src/services/thumbnail.errors.ts',
    'apps/thumbs-worker/src/repositories/image.repository.ts → apps/thumbs-worker/src/services/animation.rules.ts',
    'apps/thumbs-worker/src/repositories/image.repository.ts → apps/thumbs-worker/src/services/clip.rules.ts',
    'apps/thumbs-worker/src/repositories/image.repository.ts → apps/thumbs-worker/src/services/thumbnail.errors.ts',
    'apps/thumbs-worker/src/repositories/indexed-gif-encoder.repository.ts → apps/thumbs-worker/src/services/gif-frames.rules.ts',
    'apps/thumbs-worker/src/repositories/indexed-gif-encoder.repository.ts → apps/thumbs-worker/src/services/gif-timing.rules.ts',
    'apps/thumbs-worker/src/repositories/mp4-encoder.repository.ts → apps/thumbs-worker/src/services/clip.rules.ts',
    'apps/thumbs-worker/src/repositories/mp4-encoder.repository.ts → apps/thumbs-worker/src/services/mp4-frames.rules.ts',
    'apps/thumbs-worker/src/repositories/thumbnail-encoder.repository.ts → apps/thumbs-worker/src/services/clip.rules.ts',
    'apps/thumbs-worker/src/repositories/thumbnail-encoder.repository.ts → apps/thumbs-worker/src/services/gif-frames.rules.ts',
    'apps/thumbs-worker/src/repositories/video.repository.ts → apps/thumbs-worker/src/services/clip.rules.ts',
    'apps/thumbs-worker/src/repositories/video.repository.ts → apps/thumbs-worker/src/services/thumbnail.errors.ts',
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
