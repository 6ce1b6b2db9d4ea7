import { unavailableDependencyOf } from './dependencies/dependency-failure.js';

interface RejectionLog {
  warn(message: string, meta?: Record<string, unknown>): unknown;
  error(message: string, meta?: Record<string, unknown>): unknown;
}

/**
 * What a process does with a promise that rejected with nobody to handle it. One that says a
 * dependency is unavailable (a command a library sent by itself, such as ioredis renewing a
 * subscription after a reconnect, that timed out) must never end the process: it is logged and the
 * process keeps serving, answering 503 code 1004 where a request needs that dependency. Anything
 * else is a bug whose state nobody knows: logged as JSON, then the process exits 1, as Node would.
 */
export function unhandledRejectionHandler(
  logger: RejectionLog,
  exit: (code: number) => void = (code) => process.exit(code),
): (reason: unknown) => void {
  return (reason) => {
    const dependency = unavailableDependencyOf(reason);
    if (dependency !== undefined) {
      logger.warn('unhandled rejection of a dependency call', { dependency, error: reason });
      return;
    }
    logger.error('unhandled rejection', { error: reason });
    exit(1);
  };
}
