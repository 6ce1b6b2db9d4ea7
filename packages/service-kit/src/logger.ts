import winston from 'winston';
import type { LogLevel } from './base-config.js';

export type Logger = winston.Logger;

/** JSON lines on stdout, one logger per process, tagged with the service name. */
export function createLogger(service: string, level: LogLevel = 'info', options: { silent?: boolean } = {}): Logger {
  return winston.createLogger({
    level,
    silent: options.silent ?? false,
    defaultMeta: { service },
    format: winston.format.combine(winston.format.timestamp(), winston.format.errors({ stack: true }), winston.format.json()),
    transports: [new winston.transports.Console()],
  });
}
