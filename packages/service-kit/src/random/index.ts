export { secretBytes } from './secret-bytes.js';
