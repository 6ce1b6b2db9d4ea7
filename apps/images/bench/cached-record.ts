import type { CeilingRateLimitConfig } from '@pawlink/bench/ceiling-rate-limit';
import type { ImageRow } from '../src/db/entities/image.entity.js';

/** Where the ceilings find what the images service stores in Redis (bench/main.ts takes the names from its repositories). */
export interface RecordCeilingConfig {
  redisUrl: string;
  /** `<prefix>{images}:records`: id → positional JSON row. */
  recordsKey: string;
  /** IMAGES_MEDIA_URL, for the records' URLs. */
  imagesMediaUrl: string;
  /** Also counts each request in rate-limit windows (the contract's I/O for the endpoint), in the same write as the read. */
  rateLimit?: CeilingRateLimitConfig;
}

/** The record cache's positional JSON (see RecordCacheRepository, which keeps its decoder private). */
type Stored = [
  category: string,
  ext: string,
  mimeType: string,
  size: number,
  width: number,
  height: number,
  artists: string[],
  sources: string[],
  reportUrl: string | null,
  shortUrl: string | null,
  createdAtMs: number,
];

/** A record cache entry back into a row. */
export function decodeCachedRecord(id: string, value: string): ImageRow {
  const [category, ext, mimeType, size, width, height, artists, sources, reportUrl, shortUrl, createdAtMs] = JSON.parse(
    value,
  ) as Stored;
  return {
    id,
    category,
    ext,
    mimeType,
    size,
    width,
    height,
    artists,
    sources,
    reportUrl,
    shortUrl,
    createdAt: new Date(createdAtMs),
  };
}
