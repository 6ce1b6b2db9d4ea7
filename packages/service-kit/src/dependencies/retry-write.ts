import { setTimeout as sleep } from 'node:timers/promises';
import { DependencyUnavailableError } from './dependency-failure.js';

/**
 * What is worth one more try of a write that is safe to repeat: a certification conflict (1213),
 * a node not ready yet (1047), a writer that turned read-only (1290 `--read-only`, 1792) and a
 * connection cut under the statement (HAProxy moving writes to another node). Not a timed-out or
 * refused connection, nor an open circuit: those are a database that is not there, and another
 * try would only spend the request's time.
 */
const RETRYABLE_CODES = new Set([
  'ER_LOCK_DEADLOCK',
  'ER_UNKNOWN_COM_ERROR',
  'ER_OPTION_PREVENTS_STATEMENT',
  'ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION',
  'ER_CONNECTION_KILLED',
  'PROTOCOL_CONNECTION_LOST',
  'ECONNRESET',
  'EPIPE',
]);

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const shape = error as { code?: unknown; message?: unknown; driverError?: unknown };
  if (shape.driverError !== undefined) return codeOf(shape.driverError);
  // 1290 names the option that refused the statement; only `--read-only` is a writer on its way out.
  if (shape.code === 'ER_OPTION_PREVENTS_STATEMENT')
    return typeof shape.message === 'string' && /read[-_]only/i.test(shape.message) ? shape.code : undefined;
  return typeof shape.code === 'string' ? shape.code : undefined;
}

/** Whether a failed write may be tried again (see RETRYABLE_CODES). */
export function isRetryableWriteFailure(error: unknown): boolean {
  if (error instanceof DependencyUnavailableError) return false;
  const code = codeOf(error);
  return code !== undefined && RETRYABLE_CODES.has(code);
}

export interface RetryWriteOptions {
  /** Tries in all (default 3). */
  attempts?: number;
  /**
   * No try starts later than this after the first (default 250 ms): a last try held by a stalled
   * writer is failed by the database circuit by 0.7 of DB_QUERY_TIMEOUT_MS, so the request still
   * answers within its second.
   */
  budgetMs?: number;
  /** Pause before a retry: uniformly between these (default 20–100 ms), so writers that collided part. */
  minDelayMs?: number;
  maxDelayMs?: number;
  now?: () => number;
  pause?: (ms: number) => Promise<unknown>;
  random?: () => number;
}

/**
 * Runs a write that is safe to repeat (idempotent, or one whose earlier commit the write itself
 * recognises), again after a short jittered pause when it failed in a way another try can fix
 * (isRetryableWriteFailure), at most `attempts` times and never past `budgetMs`; any other
 * failure, and the last, is thrown as it came (a dependency failure: 503 1004). `write` gets the
 * try's number, from 1: a retry knows an earlier try may have committed.
 */
export async function retryWrite<T>(
  write: (attempt: number) => Promise<T>,
  options: RetryWriteOptions = {},
): Promise<T> {
  const {
    attempts = 3,
    budgetMs = 250,
    minDelayMs = 20,
    maxDelayMs = 100,
    now = Date.now,
    pause = sleep,
    random = Math.random,
  } = options;
  const giveUpAt = now() + budgetMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await write(attempt);
    } catch (error) {
      const delayMs = Math.round(minDelayMs + random() * (maxDelayMs - minDelayMs));
      if (attempt >= attempts || !isRetryableWriteFailure(error) || now() + delayMs > giveUpAt) throw error;
      await pause(delayMs);
    }
  }
}
