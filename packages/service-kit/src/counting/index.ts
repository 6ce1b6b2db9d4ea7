export * from './batch-mover.js';
export * from './batch-table.js';
export * from './chunked-flusher.js';
export * from './day-tally.js';
export * from './pending-counts.js';
export * from './reusable-counts.js';
export * from './utc-day.js';
