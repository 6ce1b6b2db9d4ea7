export * from './input-failure.js';
export * from './validate.js';
export * from './run-validation.js';
export * from './body-fields.js';
