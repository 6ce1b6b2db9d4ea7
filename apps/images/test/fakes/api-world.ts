import { CategoryCacheRepository } from '../../src/repositories/category-cache.repository.js';
import { ImageRowsRepository } from '../../src/repositories/image-rows.repository.js';
import { BulkImagesService } from '../../src/services/bulk-images.service.js';
import { GetCategoryService } from '../../src/services/get-category.service.js';
import { GetImageService } from '../../src/services/get-image.service.js';
import { ListCategoriesService } from '../../src/services/list-categories.service.js';
import { RandomImagesService } from '../../src/services/random-images.service.js';
import { SizeIndexService } from '../../src/services/size-index.service.js';
import { imageRow } from '../image-row.js';
import {
  FakeCategoryRepository,
  FakeImageFileRepository,
  FakeImageRepository,
  FakeRecordCacheRepository,
  FakeSizeIndexRepository,
  fakeLogger,
} from './repositories.fake.js';

/** The services of the HTTP API, wired as the container wires them. */
export interface ApiServices {
  randomImages: RandomImagesService;
  bulkImages: BulkImagesService;
  getImage: GetImageService;
  getCategory: GetCategoryService;
  listCategories: ListCategoriesService;
}

/** The in-memory repositories of the API's service specs, and the services over them. */
export interface ApiWorld {
  images: FakeImageRepository;
  categories: FakeCategoryRepository;
  index: FakeSizeIndexRepository;
  records: FakeRecordCacheRepository;
  logger: ReturnType<typeof fakeLogger>;
  clock: { now: number };
  /** Category rows are trusted for `categoryCacheMs` (0: MySQL is asked every time). */
  services(categoryCacheMs?: number): ApiServices;
}

export function apiWorld(): ApiWorld {
  const images = new FakeImageRepository();
  const categories = new FakeCategoryRepository(images);
  const records = new FakeRecordCacheRepository();
  const index = new FakeSizeIndexRepository(records);
  const logger = fakeLogger();
  const clock = { now: 1_000_000 };
  const indexing = new SizeIndexService({ index, images, logger });
  const imagesMediaUrl = 'http://media.test/images';
  return {
    images,
    categories,
    index,
    records,
    logger,
    clock,
    services(categoryCacheMs = 0) {
      const categoryCache = new CategoryCacheRepository(categories, categoryCacheMs, () => clock.now);
      const rows = new ImageRowsRepository(records, images);
      const randomImages = new RandomImagesService({
        categoryCache,
        categories,
        index,
        indexing,
        rows,
        files: new FakeImageFileRepository(),
        imagesMediaUrl,
        logger,
      });
      return {
        randomImages,
        bulkImages: new BulkImagesService({ categoryCache, picks: randomImages, imagesMediaUrl }),
        getImage: new GetImageService({ categoryCache, rows, imagesMediaUrl }),
        getCategory: new GetCategoryService({ categoryCache }),
        listCategories: new ListCategoriesService({ categories }),
      };
    },
  };
}

/** The images of `db` as the import leaves them: rows, records and index entries. */
async function store(world: ApiWorld, db: string, sizes: number[], firstN: number): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, size] of sizes.entries()) {
    const row = imageRow(db, firstN + i, { size });
    world.images.rows.set(row.id, row);
    await world.index.rebuild(db, world.images.idsAndSizes(db));
    ids.push(row.id);
  }
  return ids;
}

/**
 * The categories every API spec starts from: `furry.hug` (five images of 100 to 500 bytes),
 * `furry.pair` (50 and 60 bytes), `furry.closed` (disabled, one image) and `animals.fox` (empty).
 * Returns the ids of the hug and pair images.
 */
export async function seedCategories(world: ApiWorld): Promise<{ hug: string[]; pair: string[] }> {
  for (const db of ['furry.hug', 'furry.pair', 'furry.closed', 'animals.fox']) await world.categories.create(db, db);
  await world.categories.setDisabled('furry.closed', true, 'Closed.');
  const hug = await store(world, 'furry.hug', [100, 200, 300, 400, 500], 1);
  const pair = await store(world, 'furry.pair', [50, 60], 10);
  await store(world, 'furry.closed', [70], 20);
  return { hug, pair };
}

/** The error code a service call fails with, or 'ok'. */
export const codeOf = async (promise: Promise<unknown>): Promise<number | 'ok'> =>
  promise.then(
    () => 'ok' as const,
    (error: { code: number }) => error.code,
  );
