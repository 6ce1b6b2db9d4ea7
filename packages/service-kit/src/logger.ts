import type { Writable } from 'node:stream';
import winston from 'winston';
import type { LogLevel } from './base-config.js';
import { currentRequestId } from './request-id.js';
import { telemetryHooks, type TelemetryHooks } from './telemetry/telemetry-hooks.js';

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

/** With tracing on, every line logged inside a span carries its trace and span ids. */
function tagSpan(hooks: TelemetryHooks): winston.Logform.Format {
  return winston.format((info) => {
    const ids = hooks.activeSpanIds();
    if (ids !== undefined) {
      info.traceId = ids.traceId;
      info.spanId = ids.spanId;
    }
    return info;
  })();
}

/**
 * JSON lines on stdout, one logger per process, tagged with the service name and, inside a
 * request, its request id (and with tracing on, inside a span, its trace and span ids). `stream` replaces stdout (tests read the lines).
 */
export function createLogger(
  service: string,
  level: LogLevel = 'info',
  options: { silent?: boolean; stream?: Writable } = {},
): Logger {
  const hooks = telemetryHooks();
  return winston.createLogger({
    level,
    silent: options.silent ?? false,
    defaultMeta: { service },
    format: winston.format.combine(
      winston.format.timestamp(),
      winston.format.errors({ stack: true }),
      serialiseErrors(),
      tagRequestId(),
      ...(hooks ? [tagSpan(hooks)] : []),
      winston.format.json(),
    ),
    transports: [
      options.stream ? new winston.transports.Stream({ stream: options.stream }) : new winston.transports.Console(),
    ],
  });
}
