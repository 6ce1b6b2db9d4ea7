import winston from 'winston';
import type { LogLevel } from './base-config.js';

export type Logger = winston.Logger;

/**
 * winston's `errors()` format only unwraps an Error passed as the message; errors passed in
 * metadata (`{ error }`) would serialise as `{}`. Turn them into name, message and stack.
 */
const serialiseErrors = winston.format((info) => {
  for (const [key, value] of Object.entries(info)) {
    if (value instanceof Error) {
      info[key] = { name: value.name, message: value.message, stack: value.stack, ...(value.cause instanceof Error ? { cause: value.cause.message } : {}) };
    }
  }
  return info;
});

/** JSON lines on stdout, one logger per process, tagged with the service name. */
export function createLogger(service: string, level: LogLevel = 'info', options: { silent?: boolean } = {}): Logger {
  return winston.createLogger({
    level,
    silent: options.silent ?? false,
    defaultMeta: { service },
    format: winston.format.combine(winston.format.timestamp(), winston.format.errors({ stack: true }), serialiseErrors(), winston.format.json()),
    transports: [new winston.transports.Console()],
  });
}
