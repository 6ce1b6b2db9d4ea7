import type { DataSourceSpec } from '@pawlink/service-kit';
import { CategoryEntity } from './entities/category.entity.js';
import { ImageEntity } from './entities/image.entity.js';
import { CreateImages1763800000000 } from './migrations/1763800000000-create-images.js';
import { AddCategorySfw1763950000000 } from './migrations/1763950000000-add-category-sfw.js';
import { AddImageAnimated1763950000001 } from './migrations/1763950000001-add-image-animated.js';
import { IndexMissingShortUrls1796100000000 } from './migrations/1796100000000-index-missing-short-urls.js';
import { AddImageThumbhash1764100000000 } from './migrations/1764100000000-add-image-thumbhash.js';

/** The `<DB_PREFIX>images` schema: categories and image records. */
export const imagesDatabase: DataSourceSpec = {
  name: 'images',
  entities: [CategoryEntity, ImageEntity],
  migrations: [
    CreateImages1763800000000,
    AddCategorySfw1763950000000,
    AddImageAnimated1763950000001,
    AddImageThumbhash1764100000000,
    IndexMissingShortUrls1796100000000,
  ],
};
