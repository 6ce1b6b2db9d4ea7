import { describe, expect, it } from 'vitest';
import type { ImageRow } from '../db/entities/image.entity.js';
import { ThumbhashBackfillService } from './thumbhash-backfill.service.js';

const row = (id: string): ImageRow => ({
  id,
  category: 'furry.hug',
  ext: 'png',
  mimeType: 'image/png',
  size: 1,
  width: 1,
  height: 1,
  artists: [],
  sources: [],
  reportUrl: null,
  shortUrl: null,
  createdAt: new Date(0),
  thumbhash: null,
});

describe('ThumbhashBackfillService', () => {
  it('visits every image without a ThumbHash page by page, stores each and refreshes its cached record; unreadable files are reported', async () => {
    const ids = Array.from({ length: 450 }, (_, i) => i.toString(16).padStart(32, '0'));
    const column = new Map<string, string | null>(ids.map((id) => [id, null]));
    const cached: ImageRow[] = [];
    const pages: number[] = [];
    const service = new ThumbhashBackfillService({
      thumbhashColumn: {
        pageWithout: (after, limit) => {
          const page = [...column]
            .filter(([id, hash]) => id > after && hash === null)
            .slice(0, limit)
            .map(([id]) => ({ id, ext: 'png' }));
          pages.push(page.length);
          return Promise.resolve(page);
        },
        set: (id, hash) => {
          column.set(id, hash);
          return Promise.resolve(true);
        },
      },
      files: { pathOf: (id, ext) => `/media/images/${id}.${ext}` },
      thumbhashes: {
        of: (file) =>
          String(file).includes(ids[7]!)
            ? Promise.reject(new Error('ENOENT: no such file\nstack'))
            : Promise.resolve(`hash:${String(file).slice(-8)}`),
      },
      images: { findById: (id) => Promise.resolve(row(id)) },
      records: { setMany: (rows) => Promise.resolve(void cached.push(...rows)) },
    });
    const result = await service.backfill();
    expect(result).toEqual({ updated: 449, failed: [{ id: ids[7], reason: 'ENOENT: no such file' }] });
    expect(pages).toEqual([200, 200, 50, 0]);
    expect(column.get(ids[0]!)).toBe(`hash:${ids[0]!.slice(-4)}.png`);
    expect(column.get(ids[7]!)).toBeNull();
    expect(cached).toHaveLength(449);
    expect(cached[0]).toEqual({ ...row(ids[0]!), thumbhash: `hash:${ids[0]!.slice(-4)}.png` });
  });
});
