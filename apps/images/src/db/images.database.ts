import type { DataSourceSpec } from '@pawlink/service-kit';
import { CategoryEntity } from './entities/category.entity.js';
import { ImageEntity } from './entities/image.entity.js';
import { CreateImages1763800000000 } from './migrations/1763800000000-create-images.js';
import { IndexMissingShortUrls1796100000000 } from './migrations/1796100000000-index-missing-short-urls.js';

/** The `<DB_PREFIX>images` schema: categories and image records. */
export const imagesDatabase: DataSourceSpec = {
  name: 'images',
  entities: [CategoryEntity, ImageEntity],
  migrations: [CreateImages1763800000000, IndexMissingShortUrls1796100000000],
};
