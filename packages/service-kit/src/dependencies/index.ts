export * from './cluster-master-circuit.js';
export * from './database-circuit.js';
export * from './dependency-failure.js';
export * from './readiness.js';
export * from './retry-write.js';
export * from './writer-check.js';
export * from './open-data-source.js';
