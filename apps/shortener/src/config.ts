import { ConfigError, loadBaseConfig, readInt, readString, type BaseConfig, type Env } from '@pawlink/service-kit';
import { normalisePrivateTargetPrefix } from './services/target-url.rules.js';

export interface ShortenerConfig extends BaseConfig {
  shortener: {
    /** Most codes the in-process redirect cache holds (least recently used go first). */
    cacheSize: number;
    /** Most preview rows held in process (least recently used go first); 0 turns the preview cache off. */
    previewCacheSize: number;
    /** Longest an in-process entry (redirect or preview) is trusted; bounds staleness if an invalidation is ever lost. */
    localCacheTtlMs: number;
    /** Lifetime of a code → url entry in the shared Redis cache. */
    redisCacheTtlSeconds: number;
    /** `Cache-Control: private, max-age=<n>` on redirects: short, so edits reach browsers soon. */
    redirectMaxAgeSeconds: number;
    /**
     * URL prefixes accepted as targets although their host is loopback, private or a local name:
     * the system's own image files when they are served on a local address (npm start, compose).
     */
    privateTargetPrefixes: string[];
  };
}

/** SHORTENER_PRIVATE_TARGET_PREFIXES: comma-separated http(s) URL prefixes; default none. */
function readPrivateTargetPrefixes(env: Env): string[] {
  const name = 'SHORTENER_PRIVATE_TARGET_PREFIXES';
  const items = readString(env, name, '').split(',').map((item) => item.trim()).filter((item) => item !== '');
  return items.map((item) => {
    try {
      return normalisePrivateTargetPrefix(item);
    } catch (error) {
      throw new ConfigError(name, `${(error as Error).message}, got "${item}"`);
    }
  });
}

/** The shortener's configuration, read once at boot; a bad value throws a ConfigError naming it. */
export function loadShortenerConfig(env: Env, cwd = process.cwd()): ShortenerConfig {
  return {
    ...loadBaseConfig(env, cwd),
    shortener: {
      cacheSize: readInt(env, 'SHORTENER_CACHE_SIZE', 100_000, { min: 0, max: 10_000_000 }),
      previewCacheSize: readInt(env, 'SHORTENER_PREVIEW_CACHE_SIZE', 10_000, { min: 0, max: 1_000_000 }),
      localCacheTtlMs: readInt(env, 'SHORTENER_LOCAL_CACHE_TTL_SECONDS', 300, { min: 1, max: 86_400 }) * 1000,
      redisCacheTtlSeconds: readInt(env, 'SHORTENER_REDIS_CACHE_TTL_SECONDS', 86_400, { min: 1, max: 30 * 86_400 }),
      redirectMaxAgeSeconds: readInt(env, 'SHORTENER_REDIRECT_MAX_AGE', 60, { min: 0, max: 3600 }),
      privateTargetPrefixes: readPrivateTargetPrefixes(env),
    },
  };
}
