import { NEVER_HAD_CONTENT_COMMENT } from '@pawlink/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiWorld, codeOf, seedCategories, type ApiWorld } from '../../test/fakes/api-world.js';
import { imageRow } from '../../test/image-row.js';
import type { GetCategoryService } from './get-category.service.js';

describe('GetCategoryService', () => {
  let w: ApiWorld;
  let service: GetCategoryService;
  beforeEach(async () => {
    w = apiWorld();
    await seedCategories(w);
    service = w.services().getCategory;
  });

  it('aggregates a category, and answers 1030 for an unknown one', async () => {
    w.images.rows.set(
      imageRow('furry.hug', 9).id,
      imageRow('furry.hug', 9, { size: 3 * 1024 * 1024, mimeType: 'image/gif' }),
    );
    expect(await service.categoryInfo('furry.hug')).toEqual({
      name: 'furry.hug',
      db: 'furry.hug',
      sfw: false,
      disabled: false,
      files: {
        exists: true,
        list: {
          total: 6,
          size: { total: 3147228, totalM: 3.001, average: 524538, averageM: 0.5 },
          types: { 'image/gif': 1, 'image/png': 5 },
        },
      },
    });
    expect(await service.categoryInfo('animals.fox')).toMatchObject({
      disabled: true,
      _comment: NEVER_HAD_CONTENT_COMMENT,
      files: { exists: false, list: { total: 0, types: {} } },
    });
    expect(await service.categoryInfo('furry.closed')).toMatchObject({
      disabled: true,
      _comment: 'Closed.',
      files: { exists: true },
    });
    expect(await codeOf(service.categoryInfo('furry.nope'))).toBe(1030);
  });
});
