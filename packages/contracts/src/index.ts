export * from './errors.js';
export * from './common.js';
export * from './shortener.js';
export * from './images.js';
export * from './thumbs.js';
export * from './md5.js';
export * from './media-layout.js';
export * from './public-address.js';
