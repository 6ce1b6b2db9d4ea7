import { loadBaseConfig, readInt, readSecret, readUrl, type BaseConfig, type Env } from '@pawlink/service-kit';

/** How images gets a short link for each image from the shortener (docs/services.md, "Image short links"). */
export interface ShortLinkSettings {
  /** Where images calls the shortener's API (SHORTENER_API_URL, default SHORTENER_URL). */
  apiUrl: string;
  /** A key with the `shortener` flag (SHORTENER_KEY); null: not configured, images get no short links. */
  key: string | null;
  /** Pause between the background filler's passes. */
  intervalMs: number;
  /** Create requests in flight at once. */
  concurrency: number;
  /** Longest wait for one answer of the shortener. */
  timeoutMs: number;
}

/** The images service's own settings. */
export interface ImagesSettings {
  /** How long a category row is trusted in process before MySQL is asked again. */
  categoryCacheMs: number;
  shortLinks: ShortLinkSettings;
}

export interface ImagesConfig extends BaseConfig {
  images: ImagesSettings;
}

/** The short-link settings alone (bin/admin reads them beside its shared configuration). */
export function loadShortLinkSettings(env: Env, shortenerUrl: string): ShortLinkSettings {
  const key = readSecret(env, 'SHORTENER_KEY').trim();
  return {
    apiUrl: readUrl(env, 'SHORTENER_API_URL', shortenerUrl),
    key: key === '' ? null : key,
    intervalMs: readInt(env, 'IMAGES_SHORT_LINKS_INTERVAL_MS', 2000, { min: 50, max: 600_000 }),
    concurrency: readInt(env, 'IMAGES_SHORT_LINKS_CONCURRENCY', 4, { min: 1, max: 64 }),
    timeoutMs: readInt(env, 'IMAGES_SHORT_LINKS_TIMEOUT_MS', 5000, { min: 100, max: 120_000 }),
  };
}

/** The images service's configuration: the shared variables plus its own. */
export function loadImagesConfig(env: Env = process.env, cwd = process.cwd()): ImagesConfig {
  const base = loadBaseConfig(env, cwd);
  return {
    ...base,
    images: {
      categoryCacheMs: readInt(env, 'IMAGES_CATEGORY_CACHE_MS', 1000, { min: 0, max: 600_000 }),
      shortLinks: loadShortLinkSettings(env, base.urls.shortener),
    },
  };
}
