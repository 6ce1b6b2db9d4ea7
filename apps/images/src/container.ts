import type { RedisClient } from '@pawlink/service-kit/redis';
import type { DataSource } from 'typeorm';
import type { ImagesConfig } from './config.js';
import { CategoryCacheRepository } from './repositories/category-cache.repository.js';
import { CategoryCountsRepository } from './repositories/category-counts.repository.js';
import { CategoryRepository } from './repositories/category.repository.js';
import { ImageFileRepository } from './repositories/image-file.repository.js';
import { ImageProbeRepository } from './repositories/image-probe.repository.js';
import { ImageRowsRepository } from './repositories/image-rows.repository.js';
import { ImageRepository } from './repositories/image.repository.js';
import { PlaceholderImageRepository } from './repositories/placeholder-image.repository.js';
import { RecordCacheRepository } from './repositories/record-cache.repository.js';
import { SizeIndexRepository } from './repositories/size-index.repository.js';
import { ImageShortUrlRepository } from './repositories/image-short-url.repository.js';
import { ShortLinkLockRepository } from './repositories/short-link-lock.repository.js';
import { ShortLinkRepository, type ShortLinkClient } from './repositories/short-link.repository.js';
import { ShortLinkFiller } from './services/short-link-filler.service.js';
import { ShortLinksService } from './services/short-links.service.js';
import { ImageThumbhashRepository } from './repositories/image-thumbhash.repository.js';
import { ThumbhashRepository } from './repositories/thumbhash.repository.js';
import { CategoryAdminService } from './services/category-admin.service.js';
import { DemoSeedService } from './services/demo-seed.service.js';
import { ImageAdminService } from './services/image-admin.service.js';
import { ImageImportService } from './services/image-import.service.js';
import type { LogSink } from '@pawlink/service-kit/logger';
import { BulkImagesService } from './services/bulk-images.service.js';
import { CATEGORY_COUNTS_CACHE_MS, CategoryCountsService } from './services/category-counts.service.js';
import { GetCategoryService } from './services/get-category.service.js';
import { GetImageService } from './services/get-image.service.js';
import { ListCategoriesService } from './services/list-categories.service.js';
import { RandomImagesService } from './services/random-images.service.js';
import { SizeIndexService } from './services/size-index.service.js';
import { ThumbhashBackfillService } from './services/thumbhash-backfill.service.js';

export interface ImagesConnections {
  /** What the container reads of the configuration (bin/admin has a BaseConfig and adds an `images` section). */
  config: Pick<ImagesConfig, 'mediaDir' | 'redis' | 'urls' | 'images'>;
  logger: LogSink;
  /** Size indexes and the record cache. */
  redis: RedisClient;
  /** `<DB_PREFIX>images` (`imagesDatabase`). */
  dataSource: DataSource;
  /** Replaces the shortener's HTTP client (tests); default: one built from the short-link settings, none without SHORTENER_KEY. */
  shortener?: ShortLinkClient | null;
}

export interface ImagesRepositories {
  categories: CategoryRepository;
  images: ImageRepository;
  sizeIndex: SizeIndexRepository;
  records: RecordCacheRepository;
  files: ImageFileRepository;
}

/** The HTTP API: one service per endpoint (docs/architecture.md, "Endpoints of `apps/images`"). */
export interface ImagesApi {
  listCategories: ListCategoriesService;
  getCategory: GetCategoryService;
  getImage: GetImageService;
  randomImages: RandomImagesService;
  bulkImages: BulkImagesService;
  /** The documentation page's category table. */
  categoryCounts: CategoryCountsService;
}

export interface ImagesContainer {
  /** The HTTP API's operations. */
  images: ImagesApi;
  /** The one size-index rebuild; `ensureAll()` at start. */
  sizeIndex: SizeIndexService;
  imports: ImageImportService;
  imageAdmin: ImageAdminService;
  categoryAdmin: CategoryAdminService;
  demoSeed: DemoSeedService;
  /** Short links of images: one batch, or all (`bin/admin images shortlinks`). */
  shortLinks: ShortLinksService;
  /** The background filler main.ts starts (not started by the container). */
  shortLinkFiller: ShortLinkFiller;
  /** `bin/admin images thumbhash`. */
  thumbhashBackfill: ThumbhashBackfillService;
  /** For tests and the benchmark, which arrange and inspect stored data; the process and the CLI go through the services. */
  repositories: ImagesRepositories;
}

/** The images repositories and services, wired the one way main.ts, bin/admin and the tests share. */
export function createImagesContainer(connections: ImagesConnections): ImagesContainer {
  const { config, logger, redis, dataSource } = connections;
  const repositories: ImagesRepositories = {
    categories: new CategoryRepository(dataSource),
    images: new ImageRepository(dataSource),
    sizeIndex: new SizeIndexRepository(redis, config.redis.prefix),
    records: new RecordCacheRepository(redis, config.redis.prefix),
    files: new ImageFileRepository(config.mediaDir),
  };
  const { categories, images, sizeIndex, records, files } = repositories;
  const indexing = new SizeIndexService({ index: sizeIndex, images, logger });
  const { shortLinks: linkSettings } = config.images;
  const shortener =
    connections.shortener !== undefined
      ? connections.shortener
      : linkSettings.key === null
        ? null
        : new ShortLinkRepository({
            apiUrl: linkSettings.apiUrl,
            key: linkSettings.key,
            timeoutMs: linkSettings.timeoutMs,
          });
  const shortLinks = new ShortLinksService({
    shortUrls: new ImageShortUrlRepository(dataSource),
    records,
    shortener,
    imagesMediaUrl: config.urls.imagesMedia,
    concurrency: linkSettings.concurrency,
  });
  const thumbhashes = new ThumbhashRepository();
  const imports = new ImageImportService({
    categories,
    images,
    files,
    probe: new ImageProbeRepository(),
    records,
    indexing,
    thumbhashes,
  });
  const imagesMediaUrl = config.urls.imagesMedia;
  const categoryCache = new CategoryCacheRepository(categories, config.images.categoryCacheMs);
  const rows = new ImageRowsRepository(records, images);
  const randomImages = new RandomImagesService({
    categoryCache,
    categories,
    index: sizeIndex,
    indexing,
    rows,
    files,
    imagesMediaUrl,
    logger,
  });
  return {
    images: {
      listCategories: new ListCategoriesService({ categories }),
      getCategory: new GetCategoryService({ categoryCache }),
      getImage: new GetImageService({ categoryCache, rows, imagesMediaUrl }),
      randomImages,
      bulkImages: new BulkImagesService({ categoryCache, picks: randomImages, imagesMediaUrl }),
      categoryCounts: new CategoryCountsService({
        counts: new CategoryCountsRepository(categories, images, CATEGORY_COUNTS_CACHE_MS),
      }),
    },
    sizeIndex: indexing,
    imports,
    imageAdmin: new ImageAdminService({ categories, images, records, index: sizeIndex, indexing, files }),
    categoryAdmin: new CategoryAdminService({ categories, images }),
    demoSeed: new DemoSeedService({ categories, placeholders: new PlaceholderImageRepository(), imports }),
    shortLinks,
    shortLinkFiller: new ShortLinkFiller({
      links: shortLinks,
      lock: new ShortLinkLockRepository(redis, config.redis.prefix),
      logger,
      intervalMs: linkSettings.intervalMs,
    }),
    thumbhashBackfill: new ThumbhashBackfillService({
      thumbhashColumn: new ImageThumbhashRepository(dataSource),
      files,
      thumbhashes,
      images,
      records,
    }),
    repositories,
  };
}

/** Category administration alone, which needs MySQL only (`bin/admin category`: no Redis connection is opened). */
export function createCategoryAdmin(dataSource: DataSource): CategoryAdminService {
  return new CategoryAdminService({
    categories: new CategoryRepository(dataSource),
    images: new ImageRepository(dataSource),
  });
}
