import type { Writable } from 'node:stream';
import winston from 'winston';
import type { LogLevel } from './base-config.js';
import { currentRequestId } from './request-id.js';

export type Logger = winston.Logger;

/**
 * What a component that only reports logs through: the process's Logger fits, and so does anything
 * alike in a test. Services and clients take this instead of winston's type.
 */
export interface LogSink {
  info(message: string, meta?: Record<string, unknown>): unknown;
  warn(message: string, meta?: Record<string, unknown>): unknown;
}

/**
 * winston's `errors()` format only unwraps an Error passed as the message; errors passed in
 * metadata (`{ error }`) would serialise as `{}`. Turn them into name, message and stack.
 */
const serialiseErrors = winston.format((info) => {
  for (const [key, value] of Object.entries(info)) {
    if (value instanceof Error) {
      info[key] = {
        name: value.name,
        message: value.message,
        stack: value.stack,
        ...(value.cause instanceof Error ? { cause: value.cause.message } : {}),
      };
    }
  }
  return info;
});

/** Every line logged while a request is handled carries its id, whoever logs it. */
const tagRequestId = winston.format((info) => {
  if (info.requestId === undefined) {
    const requestId = currentRequestId();
    if (requestId !== undefined) info.requestId = requestId;
  }
  return info;
});

/**
 * JSON lines on stdout, one logger per process, tagged with the service name and, inside a
 * request, its request id. `stream` replaces stdout (tests read the lines).
 */
export function createLogger(
  service: string,
  level: LogLevel = 'info',
  options: { silent?: boolean; stream?: Writable } = {},
): Logger {
  return winston.createLogger({
    level,
    silent: options.silent ?? false,
    defaultMeta: { service },
    format: winston.format.combine(
      winston.format.timestamp(),
      winston.format.errors({ stack: true }),
      serialiseErrors(),
      tagRequestId(),
      winston.format.json(),
    ),
    transports: [
      options.stream ? new winston.transports.Stream({ stream: options.stream }) : new winston.transports.Console(),
    ],
  });
}
