export * from './public-address.js';
export * from './media-host.js';
