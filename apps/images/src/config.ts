import { loadBaseConfig, readInt, type BaseConfig, type Env } from '@pawlink/service-kit';

/** The images service's own settings. */
export interface ImagesSettings {
  /** How long a category row is trusted in process before MySQL is asked again. */
  categoryCacheMs: number;
}

export interface ImagesConfig extends BaseConfig {
  images: ImagesSettings;
}

/** The images service's configuration: the shared variables plus its own. */
export function loadImagesConfig(env: Env = process.env, cwd = process.cwd()): ImagesConfig {
  return {
    ...loadBaseConfig(env, cwd),
    images: {
      categoryCacheMs: readInt(env, 'IMAGES_CATEGORY_CACHE_MS', 1000, { min: 0, max: 600_000 }),
    },
  };
}
