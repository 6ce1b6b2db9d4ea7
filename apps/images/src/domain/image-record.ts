import type { ImageRecord, ImageWithCategory } from '@pawlink/contracts';
import type { ImageRow } from '../db/image.entity.js';

/** The public record of API.md §3; URLs come from IMAGES_MEDIA_URL, never the request. */
export function toImageRecord(row: ImageRow, imagesMediaUrl: string): ImageRecord {
  const name = `${row.id}.${row.ext}`;
  return {
    id: row.id,
    url: `${imagesMediaUrl}/${name}`,
    name,
    ext: row.ext,
    type: row.mimeType,
    size: row.size,
    width: row.width,
    height: row.height,
    artists: row.artists,
    sources: row.sources,
    reportURL: row.reportUrl,
    shortURL: row.shortUrl,
  };
}

export function toImageWithCategory(row: ImageRow, imagesMediaUrl: string): ImageWithCategory {
  return { ...toImageRecord(row, imagesMediaUrl), category: row.category };
}
