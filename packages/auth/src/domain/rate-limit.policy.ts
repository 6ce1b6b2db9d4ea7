/** A fixed window: at most `limit` requests per `windowMs`. */
export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

/** Every request of a key (or an anonymous IP) to one service counts against this. */
export const GLOBAL_RATE_LIMIT: RateLimitRule = { limit: 600, windowMs: 60_000 };

/** Route buckets by name; a route opts in with `rateLimit('<bucket>')`. */
export const RATE_LIMIT_BUCKETS = {
  // 120, not 60: a bulk create takes one unit per item and may carry 100 (docs/api.md), so the
  // default bucket must hold a whole bulk request with room for a few single creates beside it.
  'shortener.create': { limit: 120, windowMs: 60_000 },
  'shortener.manage': { limit: 60, windowMs: 60_000 },
  'shortener.read': { limit: 300, windowMs: 60_000 },
  // GET /:code/stats reads MySQL and Redis on every call (no cache), so it has a bucket of its own.
  'shortener.stats': { limit: 60, windowMs: 60_000 },
  // Anonymous redirects and previews that miss the instance's memory and ask Redis/MySQL, per
  // client IP: bounds what made-up codes cost; warm redirects and cached previews never count.
  'shortener.lookup': { limit: 300, windowMs: 60_000 },
  'images.random': { limit: 300, windowMs: 60_000 },
  'images.bulk': { limit: 10, windowMs: 60_000 },
  'images.info': { limit: 300, windowMs: 60_000 },
  'thumbs.info': { limit: 120, windowMs: 60_000 },
  'thumbs.create': { limit: 60, windowMs: 60_000 },
  'thumbs.check': { limit: 300, windowMs: 60_000 },
  // POST /admin/login per client IP: bounds how fast admin keys can be guessed through the form.
  'thumbs.admin-login': { limit: 10, windowMs: 60_000 },
  // The queue dashboard (/admin/queues/…), per admin key (per client IP with a session cookie):
  // its UI polls bull-board's API every few seconds and loads its assets once per page.
  'thumbs.admin': { limit: 300, windowMs: 60_000 },
  // GET /status on every service (counted per service): a key's own view of its limits.
  status: { limit: 60, windowMs: 60_000 },
} satisfies Record<string, RateLimitRule>;

export type RateLimitBucket = keyof typeof RATE_LIMIT_BUCKETS;

/** Invalid API keys one client IP may present to a service (bucket `auth.invalid`); past it, 429 before any key lookup. */
export const INVALID_KEY_RATE_LIMIT: RateLimitRule = { limit: 30, windowMs: 60_000 };

/** A service's default limits as its documentation lists them: its route buckets, the global window, invalid keys. */
export function serviceRateLimits(service: string): Array<{ bucket: string; limit: number; windowMs: number }> {
  const buckets = Object.entries(RATE_LIMIT_BUCKETS as Record<string, RateLimitRule>).filter(([bucket]) =>
    bucket.startsWith(`${service}.`),
  );
  return [
    ...buckets.map(([bucket, rule]) => ({ bucket, ...rule })),
    { bucket: 'global', ...GLOBAL_RATE_LIMIT },
    { bucket: 'auth.invalid', ...INVALID_KEY_RATE_LIMIT },
  ];
}
