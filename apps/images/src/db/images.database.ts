import type { DataSourceSpec } from '@pawlink/service-kit';
import { CategoryEntity } from './category.entity.js';
import { ImageEntity } from './image.entity.js';
import { CreateImages1763800000000 } from './migrations/1763800000000-create-images.js';

/** The `<DB_PREFIX>images` schema: categories and image records. */
export const imagesDatabase: DataSourceSpec = {
  name: 'images',
  entities: [CategoryEntity, ImageEntity],
  migrations: [CreateImages1763800000000],
};
