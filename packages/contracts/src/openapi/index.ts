export * from './types.js';
export * from './headers.js';
export * from './error-schemas.js';
export * from './operations.js';
export * from './document.js';
export * from './thumbs.openapi.js';
