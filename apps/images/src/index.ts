export { imagesDatabase } from './db/images.database.js';
export { registerCategoryCommands } from './cli/category.command.js';
export { registerImageCommands } from './cli/images.command.js';
export { createApp, type ImagesAppDeps } from './app.js';
export {
  createCategoryAdmin,
  createImagesContainer,
  type ImagesConnections,
  type ImagesContainer,
} from './container.js';
export { loadImagesConfig, type ImagesConfig, type ImagesSettings } from './config.js';
export { imagesOpenApi } from './openapi.js';
