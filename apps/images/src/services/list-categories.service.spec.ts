import { NEVER_HAD_CONTENT_COMMENT } from '@pawlink/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiWorld, seedCategories } from '../../test/fakes/api-world.js';
import type { ListCategoriesService } from './list-categories.service.js';

describe('ListCategoriesService', () => {
  let service: ListCategoriesService;
  beforeEach(async () => {
    const w = apiWorld();
    await seedCategories(w);
    service = w.services().listCategories;
  });

  it('lists enabled categories, and disabled ones with their comment (empty → never had content)', async () => {
    expect(await service.listCategories()).toEqual({
      enabled: [
        { name: 'furry.hug', db: 'furry.hug', sfw: false },
        { name: 'furry.pair', db: 'furry.pair', sfw: false },
      ],
      disabled: [
        { name: 'animals.fox', db: 'animals.fox', sfw: false, _comment: NEVER_HAD_CONTENT_COMMENT },
        { name: 'furry.closed', db: 'furry.closed', sfw: false, _comment: 'Closed.' },
      ],
    });
  });
});
