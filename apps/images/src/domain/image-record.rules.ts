import { imageFileName, type ImageRecord, type ImageWithCategory } from '@pawlink/contracts';
import type { ImageRow } from '../db/entities/image.entity.js';

/** The public image record (docs/api.md §3); URLs come from IMAGES_MEDIA_URL, never the request. */
export function toImageRecord(row: ImageRow, imagesMediaUrl: string): ImageRecord {
  const name = imageFileName(row.id, row.ext);
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
    thumbhash: row.thumbhash ?? null,
  };
}

/** The single-image form (`GET /images/:id.json`), which also names the category. */
export function toImageWithCategory(row: ImageRow, imagesMediaUrl: string): ImageWithCategory {
  return { ...toImageRecord(row, imagesMediaUrl), category: row.category };
}
