import type { ImageRow } from '../src/db/entities/image.entity.js';

/** An image row with made-up values: `n` gives it a distinct id and, unless given, its size (1000·n bytes). */
export function imageRow(category: string, n: number, overrides: Partial<ImageRow> = {}): ImageRow {
  return {
    id: n.toString(16).padStart(32, '0'),
    category,
    ext: 'png',
    mimeType: 'image/png',
    size: 1000 * n,
    width: 10,
    height: 20,
    artists: ['Ann'],
    sources: ['https://example.com/a'],
    reportUrl: null,
    shortUrl: null,
    createdAt: new Date('2025-01-02T03:04:05.678Z'),
    thumbhash: null,
    ...overrides,
  };
}
