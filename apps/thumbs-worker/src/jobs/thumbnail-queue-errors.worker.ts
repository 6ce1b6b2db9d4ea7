import type { Logger } from '@pawlink/service-kit/logger';
import type { EventEmitter } from 'node:events';

/** Socket-level failures: Redis is away, not a command that went wrong. */
const CONNECTION_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const CONNECTION_ERROR_MESSAGES =
  /Connection is closed|Stream isn't writeable|max retries per request|connect ETIMEDOUT|ECONNREFUSED|ECONNRESET/i;

/** Whether `error` says the connection to Redis is lost (as opposed to a command or job failing). */
export function isConnectionError(error: Error): boolean {
  const code = (error as Error & { code?: unknown }).code;
  return (
    (typeof code === 'string' && CONNECTION_ERROR_CODES.has(code)) || CONNECTION_ERROR_MESSAGES.test(error.message)
  );
}

/** What emits a queue's errors and says when its connections are back (a BullMQ worker and its backend). */
export interface QueueErrorSource {
  on(event: 'error', listener: (error: Error) => void): unknown;
  getBackend(): Pick<EventEmitter, 'on'>;
}

/**
 * Logs a BullMQ worker's errors as JSON: a lost Redis connection once when it goes and once when
 * a connection is ready again — not once per reconnect attempt, which BullMQ re-emits for both its
 * connections — and any other error each time it happens.
 */
export function logQueueErrors(
  source: QueueErrorSource,
  logger: Pick<Logger, 'info' | 'warn' | 'error'>,
  name: string,
): void {
  let down = false;
  source.on('error', (error) => {
    if (!isConnectionError(error)) {
      logger.error(`${name} error`, { error });
      return;
    }
    if (down) return;
    down = true;
    logger.warn(`${name} lost its Redis connection`, { error: error.message });
  });
  source.getBackend().on('ready', () => {
    if (!down) return;
    down = false;
    logger.info(`${name} reconnected to Redis`);
  });
}
