// Light entry point (no Express, typeorm or mysql2): worker threads and CLI commands import it.
export * from './atomic-file.js';
export * from './stale-files.js';
