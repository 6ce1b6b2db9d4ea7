// The pieces every bin/admin command group is built from (tools/admin and the apps' cli/ folders).
export * from './cli-context.js';
export * from './option-parsers.js';
