import type { Logger } from '@pawlink/service-kit';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { ImagesConfig } from './config.js';
import { CategoryRepository } from './repositories/category.repository.js';
import { ImageFileRepository } from './repositories/image-file.repository.js';
import { ImageProbeRepository } from './repositories/image-probe.repository.js';
import { ImageRepository } from './repositories/image.repository.js';
import { PlaceholderImageRepository } from './repositories/placeholder-image.repository.js';
import { RecordCacheRepository } from './repositories/record-cache.repository.js';
import { SizeIndexRepository } from './repositories/size-index.repository.js';
import { CategoryAdminService } from './services/category-admin.service.js';
import { DemoSeedService } from './services/demo-seed.service.js';
import { ImageAdminService } from './services/image-admin.service.js';
import { ImageImportService } from './services/image-import.service.js';
import { ImagesService } from './services/images.service.js';
import { SizeIndexService } from './services/size-index.service.js';

export interface ImagesConnections {
  /** The `<DB_PREFIX>images` schema (`imagesDatabase`). */
  images: DataSource;
  /** Size indexes and the record cache. */
  redis: Redis;
}

/** The settings the container reads (bin/admin passes its BaseConfig with an `images` section of its own). */
export type ImagesContainerConfig = Pick<ImagesConfig, 'mediaDir' | 'redis' | 'urls' | 'images'>;

export interface ImagesRepositories {
  categories: CategoryRepository;
  images: ImageRepository;
  sizeIndex: SizeIndexRepository;
  records: RecordCacheRepository;
  files: ImageFileRepository;
}

export interface ImagesContainer {
  /** The HTTP API's rules. */
  images: ImagesService;
  /** The one size-index rebuild; `ensureAll()` at start. */
  sizeIndex: SizeIndexService;
  imports: ImageImportService;
  imageAdmin: ImageAdminService;
  categoryAdmin: CategoryAdminService;
  demoSeed: DemoSeedService;
  /** For tests and the benchmark, which arrange and inspect stored data; the process and the CLI go through the services. */
  repositories: ImagesRepositories;
}

/** The one place connections become the images repositories and services (main.ts, bin/admin, tests). */
export function createImagesContainer(connections: ImagesConnections, config: ImagesContainerConfig, logger: Logger): ImagesContainer {
  const repositories: ImagesRepositories = {
    categories: new CategoryRepository(connections.images),
    images: new ImageRepository(connections.images),
    sizeIndex: new SizeIndexRepository(connections.redis, config.redis.prefix),
    records: new RecordCacheRepository(connections.redis, config.redis.prefix),
    files: new ImageFileRepository(config.mediaDir),
  };
  const { categories, images, sizeIndex, records, files } = repositories;
  const indexing = new SizeIndexService({ index: sizeIndex, images, logger });
  const imports = new ImageImportService({ categories, images, files, probe: new ImageProbeRepository(), records, indexing });
  return {
    images: new ImagesService({ categories, images, records, index: sizeIndex, indexing, files, imagesMediaUrl: config.urls.imagesMedia, categoryCacheMs: config.images.categoryCacheMs, logger }),
    sizeIndex: indexing,
    imports,
    imageAdmin: new ImageAdminService({ categories, images, records, index: sizeIndex, indexing, files }),
    categoryAdmin: new CategoryAdminService({ categories, images }),
    demoSeed: new DemoSeedService({ categories, placeholders: new PlaceholderImageRepository(), imports }),
    repositories,
  };
}

/** Category administration alone, which needs MySQL only (`bin/admin category`: no Redis connection is opened). */
export function createCategoryAdmin(images: DataSource): CategoryAdminService {
  return new CategoryAdminService({ categories: new CategoryRepository(images), images: new ImageRepository(images) });
}
