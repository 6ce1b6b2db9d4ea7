import { beforeEach, describe, expect, it } from 'vitest';
import { apiWorld, codeOf, seedCategories } from '../../test/fakes/api-world.js';
import type { GetImageService } from './get-image.service.js';

describe('GetImageService', () => {
  let service: GetImageService;
  let hug: string[];
  beforeEach(async () => {
    const w = apiWorld();
    ({ hug } = await seedCategories(w));
    service = w.services().getImage;
  });

  it('finds one image with its category, and answers 1040 for an unknown id', async () => {
    expect(await service.image(hug[0]!)).toMatchObject({ id: hug[0], category: 'furry.hug', size: 100 });
    expect(await codeOf(service.image('f'.repeat(32)))).toBe(1040);
  });
});
