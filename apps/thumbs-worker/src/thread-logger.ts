import winston from 'winston';
import type { LogLevel } from '@pawlink/service-kit';

/**
 * The worker thread's logger: the same JSON lines as service-kit's createLogger, without loading
 * the rest of the service kit (Express, typeorm, mysql2: ~50 MB) into every thread.
 */
export function createThreadLogger(service: string, level: LogLevel): winston.Logger {
  return winston.createLogger({
    level,
    defaultMeta: { service },
    format: winston.format.combine(winston.format.timestamp(), winston.format.errors({ stack: true }), winston.format.json()),
    transports: [new winston.transports.Console()],
  });
}
