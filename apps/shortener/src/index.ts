export { createApp, createRedirectCache, createRequestHandler, type ShortenerDeps } from './app.js';
export { loadShortenerConfig, type ShortenerConfig } from './config.js';
export { RedirectCache } from './redirect-cache.js';
export { ShortUrlEntity, type ShortUrl } from './short-url.entity.js';
export { shortenerDatabase } from './shortener.database.js';
