/**
 * Imports that run up the layers, or pairs of files that import each other, in the packages not yet
 * converted to endpoint declarations and a domain layer (docs/adr/0016), as they stood when the
 * rule came. Each entry is a debt: the engineer who converts the package moves the rule or error
 * into `domain/` and removes its entries (the test fails on an entry that no longer holds); no entry
 * is ever added.  The shortener has none.
 */
export const LAYER_ORDER_ALLOWED: Record<string, readonly string[]> = {
  'apps/thumbs': ['apps/thumbs/src/repositories/post.repository.ts → apps/thumbs/src/services/post-lookup.errors.ts'],
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
};
