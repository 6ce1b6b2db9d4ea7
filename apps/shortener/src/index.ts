export { createApp, createRequestHandler, type ShortenerAppDeps } from './app.js';
export { loadShortenerConfig, type ShortenerConfig } from './config.js';
export { createShortenerContainer, type ShortenerConnections, type ShortenerContainer } from './container.js';
export { ShortUrlEntity, type ShortUrl } from './db/entities/short-url.entity.js';
export { shortenerDatabase } from './db/shortener.database.js';
export { shortenerOpenApi } from './openapi.js';
