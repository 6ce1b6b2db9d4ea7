export { imagesDatabase } from './db/images.database.js';
export { registerCategoryCommands } from './cli/category.command.js';
export { registerImageCommands } from './cli/images.command.js';
export { createApp, createImagesService, type ImagesAppDeps } from './app.js';
export { loadImagesConfig, type ImagesConfig } from './config.js';
