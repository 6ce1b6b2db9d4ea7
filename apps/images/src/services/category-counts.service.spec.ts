import { describe, expect, it } from 'vitest';
import type { CategoryTally } from '../repositories/category-counts.repository.js';
import { CategoryCountsService } from './category-counts.service.js';

const tally = (db: string, images: number, overrides: Partial<CategoryTally> = {}): CategoryTally => ({
  db,
  name: db.toUpperCase(),
  sfw: false,
  disabled: false,
  disabledComment: null,
  createdAt: new Date(0),
  hasContent: images > 0,
  images,
  ...overrides,
});

describe('CategoryCountsService', () => {
  it('lists enabled categories first, then by key; disabled and empty ones are not enabled', async () => {
    const rows = [tally('b.one', 3), tally('a.closed', 2, { disabled: true }), tally('a.empty', 0), tally('a.two', 1)];
    const service = new CategoryCountsService({ counts: { list: () => Promise.resolve(rows) } });
    expect(await service.categoryCounts()).toEqual([
      { name: 'A.TWO', db: 'a.two', images: 1, enabled: true },
      { name: 'B.ONE', db: 'b.one', images: 3, enabled: true },
      { name: 'A.CLOSED', db: 'a.closed', images: 2, enabled: false },
      { name: 'A.EMPTY', db: 'a.empty', images: 0, enabled: false },
    ]);
  });
});
