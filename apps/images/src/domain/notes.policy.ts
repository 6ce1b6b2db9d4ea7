import type { ImageNote } from '@pawlink/contracts';

/** Notes sent with every random-image response unless the client asks `notes=disabled`. */
export const NOTES: readonly ImageNote[] = [
  {
    id: 1,
    content:
      'Please respect the rate limits (X-RateLimit-* headers). For many images at once use POST /bulk with an API key that has bulk access. Send notes=disabled to hide these notes.',
  },
];
